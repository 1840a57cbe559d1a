/* Describer: the launch fast path's reading of a kernel's arguments (runtime/fast_launch.py):
 * for each parameter, the part of the specialization key its value decides and the value the
 * launcher packs, as the dispatcher's generated Python computes them. */
#include "common.h"

enum role { R_CONSTEXPR = 'c', R_SPECIALIZED = 's', R_UNSPECIALIZED = 'n' };

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    Py_ssize_t count;
    char *roles;              /* one `enum role` per parameter */
    PyObject *tensor_type;    /* torch.Tensor, or None */
    PyObject *ndarray_type;   /* numpy.ndarray where its data pointer is at ndarray_offset */
    Py_ssize_t ndarray_offset;
    PyObject *plain;          /* the constexpr value types whose hash and equality are theirs */
    PyObject *describe;       /* (value, specialize) -> (key part or miss, value) */
    PyObject *miss;           /* describe's "no cheap description" */
    PyObject *zero;           /* the int 0 */
    PyObject *dtype_name, *is_cuda_name, *data_ptr_name;
} Describer;

/* (key part, value) of a runtime parameter's `value`, new references; 1, 0 for a miss, -1 with
 * an exception. */
static int describe_runtime(Describer *self, PyObject *value, int specialize, PyObject **key,
                            PyObject **packed) {
    PyTypeObject *type = Py_TYPE(value);
    if ((PyObject *)type == self->tensor_type || (PyObject *)type == self->ndarray_type) {
        PyObject *address;
        if ((PyObject *)type == self->tensor_type) {
            address = PyObject_CallMethodNoArgs(value, self->data_ptr_name);
        } else {
            uint64_t bits;
            memcpy(&bits, (char *)value + self->ndarray_offset, 8);
            address = PyLong_FromUnsignedLongLong(bits);
        }
        if (address == NULL) {
            return -1;
        }
        PyObject *dtype = PyObject_GetAttr(value, self->dtype_name);
        PyObject *is_cuda = NULL;
        if (dtype != NULL && (PyObject *)type == self->tensor_type) {
            is_cuda = PyObject_GetAttr(value, self->is_cuda_name);
            if (is_cuda == NULL) {
                Py_CLEAR(dtype);
            }
        }
        if (dtype == NULL) {
            Py_DECREF(address);
            return -1;
        }
        PyObject *aligned = NULL;
        if (specialize) {
            unsigned long long bits = PyLong_AsUnsignedLongLongMask(address);
            if (bits == (unsigned long long)-1 && PyErr_Occurred()) {
                Py_DECREF(address);
                Py_DECREF(dtype);
                Py_XDECREF(is_cuda);
                return -1;
            }
            aligned = (bits & 15) ? Py_False : Py_True;
        }
        if (is_cuda != NULL) {
            *key = aligned ? PyTuple_Pack(3, dtype, is_cuda, aligned)
                           : PyTuple_Pack(2, dtype, is_cuda);
        } else {
            *key = aligned ? PyTuple_Pack(2, dtype, aligned) : PyTuple_Pack(1, dtype);
        }
        Py_DECREF(dtype);
        Py_XDECREF(is_cuda);
        if (*key == NULL) {
            Py_DECREF(address);
            return -1;
        }
        *packed = address;
        return 1;
    }
    if (type == &PyLong_Type) {
        int overflow = 0;
        long long number = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (!overflow && number >= INT32_MIN && number <= INT32_MAX) {
            *key = specialize ? PyTuple_Pack(3, self->zero, number == 1 ? Py_True : Py_False,
                                             (number & 15) ? Py_False : Py_True)
                              : PyTuple_Pack(1, self->zero);
            if (*key == NULL) {
                return -1;
            }
            *packed = Py_NewRef(value);
            return 1;
        }
    } else if (type == &PyFloat_Type) {
        *key = Py_NewRef((PyObject *)&PyFloat_Type);
        *packed = Py_NewRef(value);
        return 1;
    }
    PyObject *described = PyObject_CallFunctionObjArgs(self->describe, value,
                                                       specialize ? Py_True : Py_False, NULL);
    if (described == NULL) {
        return -1;
    }
    if (!PyTuple_Check(described) || PyTuple_GET_SIZE(described) != 2) {
        Py_DECREF(described);
        PyErr_SetString(PyExc_TypeError, "describe must return a (key, value) pair");
        return -1;
    }
    if (PyTuple_GET_ITEM(described, 0) == self->miss) {
        Py_DECREF(described);
        return 0;
    }
    *key = Py_NewRef(PyTuple_GET_ITEM(described, 0));
    *packed = Py_NewRef(PyTuple_GET_ITEM(described, 1));
    Py_DECREF(described);
    return 1;
}

/* describer(*parameters) -> (key parts, launch values) or None: a key part per parameter, a
 * value per runtime parameter; None where a value has no cheap description. */
static PyObject *describer_call(PyObject *callable, PyObject *const *args, size_t nargsf,
                                PyObject *kwnames) {
    Describer *self = (Describer *)callable;
    Py_ssize_t given = PyVectorcall_NARGS(nargsf);
    if ((kwnames != NULL && PyTuple_GET_SIZE(kwnames)) || given != self->count) {
        PyErr_Format(PyExc_TypeError, "the describer takes %zd parameters, got %zd",
                     self->count, given);
        return NULL;
    }
    Py_ssize_t runtime = 0;
    for (Py_ssize_t i = 0; i < self->count; i++) {
        runtime += self->roles[i] != R_CONSTEXPR;
    }
    PyObject *keys = PyTuple_New(self->count);
    PyObject *values = PyTuple_New(runtime);
    if (keys == NULL || values == NULL) {
        Py_XDECREF(keys);
        Py_XDECREF(values);
        return NULL;
    }
    Py_ssize_t position = 0;
    for (Py_ssize_t i = 0; i < self->count; i++) {
        PyObject *value = args[i];
        PyObject *key = NULL;
        if (self->roles[i] == R_CONSTEXPR) {
            int plain = PySet_Contains(self->plain, (PyObject *)Py_TYPE(value));
            if (plain > 0) {
                key = PyTuple_Pack(2, (PyObject *)Py_TYPE(value), value);
            }
            if (plain < 0 || (plain > 0 && key == NULL)) {
                goto error;
            }
            if (plain == 0) {
                goto miss;
            }
        } else {
            PyObject *packed = NULL;
            int found = describe_runtime(self, value, self->roles[i] == R_SPECIALIZED, &key,
                                         &packed);
            if (found < 0) {
                goto error;
            }
            if (found == 0) {
                goto miss;
            }
            PyTuple_SET_ITEM(values, position++, packed);
        }
        PyTuple_SET_ITEM(keys, i, key);
    }
    PyObject *result = PyTuple_Pack(2, keys, values);
    Py_DECREF(keys);
    Py_DECREF(values);
    return result;
miss:
    Py_DECREF(keys);
    Py_DECREF(values);
    Py_RETURN_NONE;
error:
    Py_DECREF(keys);
    Py_DECREF(values);
    return NULL;
}

static PyObject *describer_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    const char *roles;
    Py_ssize_t count;
    PyObject *tensor_type, *ndarray_type, *plain, *describe, *miss;
    Py_ssize_t ndarray_offset;
    static char *keywords[] = {"roles", "tensor_type", "ndarray_type", "ndarray_offset",
                               "plain", "describe", "miss", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s#OOnO!OO:Describer", keywords, &roles,
                                     &count, &tensor_type, &ndarray_type, &ndarray_offset,
                                     &PyFrozenSet_Type, &plain, &describe, &miss)) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        if (roles[i] != R_CONSTEXPR && roles[i] != R_SPECIALIZED &&
            roles[i] != R_UNSPECIALIZED) {
            PyErr_Format(PyExc_ValueError, "unknown parameter role %c", roles[i]);
            return NULL;
        }
    }
    if (ndarray_type != Py_None && ndarray_offset < (Py_ssize_t)sizeof(PyObject)) {
        PyErr_SetString(PyExc_ValueError, "Describer: the array's data pointer cannot lie "
                        "in the object header");
        return NULL;
    }
    Describer *self = (Describer *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->roles = PyMem_Malloc(count ? (size_t)count : 1);
    self->zero = PyLong_FromLong(0);
    self->dtype_name = PyUnicode_InternFromString("dtype");
    self->is_cuda_name = PyUnicode_InternFromString("is_cuda");
    self->data_ptr_name = PyUnicode_InternFromString("data_ptr");
    if (self->roles == NULL || self->zero == NULL || self->dtype_name == NULL ||
        self->is_cuda_name == NULL || self->data_ptr_name == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    memcpy(self->roles, roles, (size_t)count);
    self->count = count;
    self->vectorcall = describer_call;
    self->tensor_type = Py_NewRef(tensor_type);
    self->ndarray_type = Py_NewRef(ndarray_type);
    self->ndarray_offset = ndarray_offset;
    self->plain = Py_NewRef(plain);
    self->describe = Py_NewRef(describe);
    self->miss = Py_NewRef(miss);
    return (PyObject *)self;
}

static int describer_traverse(Describer *self, visitproc visit, void *arg) {
    Py_VISIT(self->tensor_type);
    Py_VISIT(self->ndarray_type);
    Py_VISIT(self->plain);
    Py_VISIT(self->describe);
    Py_VISIT(self->miss);
    return 0;
}

static int describer_clear(Describer *self) {
    Py_CLEAR(self->tensor_type);
    Py_CLEAR(self->ndarray_type);
    Py_CLEAR(self->plain);
    Py_CLEAR(self->describe);
    Py_CLEAR(self->miss);
    return 0;
}

static void describer_dealloc(Describer *self) {
    PyObject_GC_UnTrack(self);
    describer_clear(self);
    Py_XDECREF(self->zero);
    Py_XDECREF(self->dtype_name);
    Py_XDECREF(self->is_cuda_name);
    Py_XDECREF(self->data_ptr_name);
    PyMem_Free(self->roles);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyTypeObject DescriberType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tilecraft_launchers.Describer",
    .tp_doc = PyDoc_STR("describer(*parameters) -> (key parts, launch values) or None: the "
                        "launch fast path's reading of a kernel's arguments"),
    .tp_basicsize = sizeof(Describer),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = describer_new,
    .tp_dealloc = (destructor)describer_dealloc,
    .tp_traverse = (traverseproc)describer_traverse,
    .tp_clear = (inquiry)describer_clear,
    .tp_vectorcall_offset = offsetof(Describer, vectorcall),
    .tp_call = PyVectorcall_Call,
};

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

/* The trait of a runtime parameter's `value` (new references) and the value the launcher packs
 * (a new reference): 1, 0 for a miss, -1 with an exception. */
static int describe_runtime(Describer *self, PyObject *value, int specialize, Trait *trait,
                            PyObject **packed) {
    PyTypeObject *type = Py_TYPE(value);
    if ((PyObject *)type == self->tensor_type || (PyObject *)type == self->ndarray_type) {
        int tensor = (PyObject *)type == self->tensor_type;
        PyObject *address;
        if (tensor) {
            address = PyObject_CallMethodNoArgs(value, self->data_ptr_name);
        } else {
            uint64_t bits;
            memcpy(&bits, (char *)value + self->ndarray_offset, 8);
            address = PyLong_FromUnsignedLongLong(bits);
        }
        if (address == NULL) {
            return -1;
        }
        int flags = 0;
        if (tensor) {
            PyObject *is_cuda = PyObject_GetAttr(value, self->is_cuda_name);
            int truth = is_cuda == NULL ? -1 : PyObject_IsTrue(is_cuda);
            Py_XDECREF(is_cuda);
            if (truth < 0) {
                Py_DECREF(address);
                return -1;
            }
            flags |= truth ? TRAIT_CUDA : 0;
        }
        if (specialize) {
            unsigned long long bits = PyLong_AsUnsignedLongLongMask(address);
            if (bits == (unsigned long long)-1 && PyErr_Occurred()) {
                Py_DECREF(address);
                return -1;
            }
            flags |= (bits & 15) ? 0 : TRAIT_ALIGNED;
        }
        PyObject *dtype = PyObject_GetAttr(value, self->dtype_name);
        if (dtype == NULL) {
            Py_DECREF(address);
            return -1;
        }
        *trait = (Trait){Py_NewRef((PyObject *)type), dtype, flags};
        *packed = address;
        return 1;
    }
    if (type == &PyLong_Type) {
        int overflow = 0;
        long long number = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (!overflow && number >= INT32_MIN && number <= INT32_MAX) {
            int flags = specialize ? (number == 1 ? TRAIT_ONE : 0) |
                                     ((number & 15) ? 0 : TRAIT_ALIGNED) : 0;
            *trait = (Trait){Py_NewRef((PyObject *)type), NULL, flags};
            *packed = Py_NewRef(value);
            return 1;
        }
    } else if (type == &PyFloat_Type) {
        *trait = (Trait){Py_NewRef((PyObject *)type), NULL, 0};
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
    *trait = (Trait){NULL, Py_NewRef(PyTuple_GET_ITEM(described, 0)), 0};
    *packed = Py_NewRef(PyTuple_GET_ITEM(described, 1));
    Py_DECREF(described);
    return 1;
}

void tc_trait_clear(Trait *trait) {
    Py_CLEAR(trait->type);
    Py_CLEAR(trait->detail);
    trait->flags = 0;
}

int tc_traits_equal(const Trait *a, const Trait *b) {
    if (a->type == NULL || a->type != b->type || a->flags != b->flags) {
        return 0;
    }
    if (a->detail == b->detail) {
        return 1;
    }
    if (a->detail == NULL || b->detail == NULL) {
        return 0;
    }
    /* (held across the comparison, which may run Python code) */
    PyObject *left = Py_NewRef(a->detail), *right = Py_NewRef(b->detail);
    int equal = PyObject_RichCompareBool(left, right, Py_EQ);
    Py_DECREF(left);
    Py_DECREF(right);
    return equal;
}

Py_ssize_t tc_describe(PyObject *describer, PyObject *const *args, Trait *traits,
                       PyObject **values) {
    Describer *self = (Describer *)describer;
    Py_ssize_t runtime = 0;
    for (Py_ssize_t i = 0; i < self->count; i++) {
        PyObject *value = args[i];
        traits[i] = (Trait){NULL, NULL, 0};
        int found;
        if (self->roles[i] == R_CONSTEXPR) {
            found = PySet_Contains(self->plain, (PyObject *)Py_TYPE(value));
            if (found > 0) {
                traits[i] = (Trait){Py_NewRef((PyObject *)Py_TYPE(value)), Py_NewRef(value), 0};
            }
        } else {
            found = describe_runtime(self, value, self->roles[i] == R_SPECIALIZED, &traits[i],
                                     &values[runtime]);
            runtime += found > 0;
        }
        if (found <= 0) {
            for (Py_ssize_t j = 0; j <= i; j++) {
                tc_trait_clear(&traits[j]);
            }
            for (Py_ssize_t j = 0; j < runtime; j++) {
                Py_DECREF(values[j]);
            }
            return found < 0 ? -1 : -2;
        }
    }
    return runtime;
}

PyObject *tc_trait_key(PyObject *describer, const Trait *trait, Py_ssize_t index) {
    Describer *self = (Describer *)describer;
    int specialize = self->roles[index] == R_SPECIALIZED;
    PyObject *aligned = (trait->flags & TRAIT_ALIGNED) ? Py_True : Py_False;
    if (trait->type == NULL) {
        return Py_NewRef(trait->detail);
    }
    if (self->roles[index] == R_CONSTEXPR) {
        return PyTuple_Pack(2, trait->type, trait->detail);
    }
    if (trait->type == self->tensor_type) {
        PyObject *is_cuda = (trait->flags & TRAIT_CUDA) ? Py_True : Py_False;
        return specialize ? PyTuple_Pack(3, trait->detail, is_cuda, aligned)
                          : PyTuple_Pack(2, trait->detail, is_cuda);
    }
    if (trait->type == self->ndarray_type) {
        return specialize ? PyTuple_Pack(2, trait->detail, aligned)
                          : PyTuple_Pack(1, trait->detail);
    }
    if (trait->type == (PyObject *)&PyLong_Type) {
        return specialize ? PyTuple_Pack(3, self->zero,
                                         (trait->flags & TRAIT_ONE) ? Py_True : Py_False, aligned)
                          : PyTuple_Pack(1, self->zero);
    }
    return Py_NewRef(trait->type);  /* a float */
}

Py_ssize_t tc_describer_count(PyObject *describer) {
    return ((Describer *)describer)->count;
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
    Trait *traits = PyMem_Malloc((size_t)(self->count ? self->count : 1) * sizeof(Trait));
    PyObject **read = PyMem_Malloc((size_t)(self->count ? self->count : 1) *
                                   sizeof(PyObject *));
    if (traits == NULL || read == NULL) {
        PyMem_Free(traits);
        PyMem_Free(read);
        return PyErr_NoMemory();
    }
    PyObject *result = NULL;
    Py_ssize_t runtime = tc_describe(callable, args, traits, read);
    if (runtime == -2) {
        result = Py_NewRef(Py_None);
    } else if (runtime >= 0) {
        PyObject *keys = PyTuple_New(self->count);
        PyObject *values = PyTuple_New(runtime);
        for (Py_ssize_t i = 0; keys != NULL && i < self->count; i++) {
            PyObject *key = tc_trait_key(callable, &traits[i], i);
            if (key == NULL) {
                Py_CLEAR(keys);
                break;
            }
            PyTuple_SET_ITEM(keys, i, key);
        }
        for (Py_ssize_t i = 0; i < runtime; i++) {
            if (values != NULL) {
                PyTuple_SET_ITEM(values, i, read[i]);
            } else {
                Py_DECREF(read[i]);
            }
        }
        if (keys != NULL && values != NULL) {
            result = PyTuple_Pack(2, keys, values);
        }
        Py_XDECREF(keys);
        Py_XDECREF(values);
        for (Py_ssize_t i = 0; i < self->count; i++) {
            tc_trait_clear(&traits[i]);
        }
    }
    PyMem_Free(traits);
    PyMem_Free(read);
    return result;
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

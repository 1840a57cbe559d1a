/* CudaLauncher: ``launcher(grid, stream, *values)`` packs the values into 8-byte slots by the
 * kernel's argument kinds and calls the driver's cuLaunchKernel (its address given at
 * construction) with the GIL released. What needs Python (a pointer argument that is not an
 * int, a stream that is not an int, the current stream, the text of a driver error) is done by
 * callables the driver module gives (tilecraft/backends/cuda/driver.py). */
#include "common.h"

typedef int (*LaunchKernel)(void *function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                            unsigned block_x, unsigned block_y, unsigned block_z,
                            unsigned shared, void *stream, void **params, void **extra);

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    void *function;
    unsigned block;
    unsigned shared;
    LaunchKernel launch_kernel;
    Py_ssize_t count;
    unsigned char *kinds;
    PyObject *name;           /* str: the kernel's name */
    PyObject *kind_names;     /* tuple of str */
    PyObject *arg_names;      /* tuple of str */
    PyObject *torch_stream;   /* list: [raw current stream of a device index] once known,
                                 called with -1: torch's current device */
    PyObject *current_stream; /* () -> int */
    PyObject *stream_handle;  /* (stream) -> int */
    PyObject *pointer_of;     /* (value, name) -> int */
    PyObject *launch_error;   /* (status: int) -> exception */
    PyObject *last_launched;  /* list of one str: the kernel launched last */
} CudaLauncher;

/* The stream handle `stream` names (None: the current stream); 0, or -1 with an exception. */
static int cuda_stream(CudaLauncher *self, PyObject *stream, uint64_t *handle) {
    PyObject *value;
    if (stream == Py_None && PyList_GET_SIZE(self->torch_stream) == 1) {
        static PyObject *current_device; /* -1, kept for the process */
        if (current_device == NULL && (current_device = PyLong_FromLong(-1)) == NULL) {
            return -1;
        }
        PyObject *raw_stream = Py_NewRef(PyList_GET_ITEM(self->torch_stream, 0));
        value = PyObject_CallOneArg(raw_stream, current_device);
        Py_DECREF(raw_stream);
    } else if (stream == Py_None) {
        value = PyObject_CallNoArgs(self->current_stream);
    } else if (PyLong_CheckExact(stream)) {
        value = Py_NewRef(stream);
    } else {
        value = PyObject_CallOneArg(self->stream_handle, stream);
    }
    if (value == NULL) {
        return -1;
    }
    unsigned long long bits = PyLong_AsUnsignedLongLong(value);
    if (bits == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "stream=%R is not a CUDA stream: pass a CUstream "
                     "handle as an int, a cuda-python CUstream or a torch.cuda.Stream", value);
        Py_DECREF(value);
        return -1;
    }
    Py_DECREF(value);
    *handle = bits;
    return 0;
}

/* Replaces the pending exception with a TypeError naming argument `index` and its kind. */
static void cuda_packing_error(CudaLauncher *self, Py_ssize_t index, PyObject *value) {
    PyObject *type, *cause, *traceback;
    PyErr_Fetch(&type, &cause, &traceback);
    PyErr_NormalizeException(&type, &cause, &traceback);
    PyErr_Format(PyExc_TypeError, "kernel %R: argument %R (%U) cannot hold %R: %S",
                 self->name, PyTuple_GET_ITEM(self->arg_names, index),
                 PyTuple_GET_ITEM(self->kind_names, index), value,
                 cause ? cause : Py_None);
    Py_XDECREF(type);
    Py_XDECREF(cause);
    Py_XDECREF(traceback);
}

static PyObject *cuda_launch(PyObject *callable, PyObject *const *args, size_t nargsf,
                             PyObject *kwnames) {
    CudaLauncher *self = (CudaLauncher *)callable;
    Py_ssize_t given = PyVectorcall_NARGS(nargsf);
    if ((kwnames != NULL && PyTuple_GET_SIZE(kwnames)) || given != self->count + 2) {
        PyErr_Format(PyExc_TypeError, "kernel %R takes %zd arguments, got %zd", self->name,
                     self->count, given < 2 ? (Py_ssize_t)0 : given - 2);
        return NULL;
    }
    long long dims[3];
    if (tc_grid_dims(args[0], dims) < 0) {
        return NULL;
    }
    if (dims[0] <= 0 || dims[1] <= 0 || dims[2] <= 0) {
        Py_RETURN_NONE;
    }
    if ((dims[0] | dims[1] | dims[2]) >> 31) {
        PyErr_Format(PyExc_ValueError, "kernel %R: grid (%lld, %lld, %lld) has a dimension of "
                     "2**31 or more programs", self->name, dims[0], dims[1], dims[2]);
        return NULL;
    }
    uint64_t stream;
    if (cuda_stream(self, args[1], &stream) < 0) {
        return NULL;
    }
    Frame frame;
    if (tc_frame_open(&frame, self->count) < 0) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < self->count; i++) {
        PyObject *value = args[2 + i];
        int packed;
        if (self->kinds[i] == K_PTR && !PyLong_CheckExact(value)) {
            PyObject *address = PyObject_CallFunctionObjArgs(
                self->pointer_of, value, PyTuple_GET_ITEM(self->arg_names, i), NULL);
            if (address == NULL) {
                tc_frame_close(&frame);
                return NULL;
            }
            packed = tc_pack_value(K_PTR, address, &frame.slots[i]);
            Py_DECREF(address);
        } else {
            packed = tc_pack_value(self->kinds[i], value, &frame.slots[i]);
        }
        if (packed < 0) {
            cuda_packing_error(self, i, value);
            tc_frame_close(&frame);
            return NULL;
        }
    }
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = self->launch_kernel(self->function, (unsigned)dims[0], (unsigned)dims[1],
                                 (unsigned)dims[2], self->block, 1, 1, self->shared,
                                 (void *)(uintptr_t)stream, self->count ? frame.params : NULL,
                                 NULL);
    Py_END_ALLOW_THREADS
    tc_frame_close(&frame);
    if (PyList_SetItem(self->last_launched, 0, Py_NewRef(self->name)) < 0) {
        return NULL;
    }
    if (status != 0) {
        PyObject *error = PyObject_CallFunction(self->launch_error, "i", status);
        if (error != NULL) {
            PyErr_SetObject((PyObject *)Py_TYPE(error), error);
            Py_DECREF(error);
        }
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *cuda_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *name, *kind_names, *arg_names, *torch_stream, *current_stream, *stream_handle;
    PyObject *pointer_of, *launch_error, *last_launched;
    unsigned long long function, launch_kernel;
    unsigned block, shared;
    static char *keywords[] = {"name", "kinds", "names", "function", "block", "shared",
                               "launch_kernel", "torch_stream", "current_stream",
                               "stream_handle", "pointer_of", "launch_error", "last_launched",
                               NULL};
    if (!PyArg_ParseTupleAndKeywords(
            args, kwargs, "UO!O!KIIKO!OOOOO!:CudaLauncher", keywords, &name, &PyTuple_Type,
            &kind_names, &PyTuple_Type, &arg_names, &function, &block, &shared, &launch_kernel,
            &PyList_Type, &torch_stream, &current_stream, &stream_handle, &pointer_of,
            &launch_error, &PyList_Type, &last_launched)) {
        return NULL;
    }
    if (PyTuple_GET_SIZE(arg_names) != PyTuple_GET_SIZE(kind_names) ||
        PyList_GET_SIZE(last_launched) < 1 || launch_kernel == 0) {
        PyErr_SetString(PyExc_ValueError, "CudaLauncher: one name per kind, a last_launched "
                        "list of one item and a cuLaunchKernel address are needed");
        return NULL;
    }
    CudaLauncher *self = (CudaLauncher *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->kinds = tc_parse_kinds(kind_names, &self->count, 1);
    if (self->kinds == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    self->vectorcall = cuda_launch;
    self->function = (void *)(uintptr_t)function;
    self->block = block;
    self->shared = shared;
    self->launch_kernel = (LaunchKernel)(uintptr_t)launch_kernel;
    self->name = Py_NewRef(name);
    self->kind_names = Py_NewRef(kind_names);
    self->arg_names = Py_NewRef(arg_names);
    self->torch_stream = Py_NewRef(torch_stream);
    self->current_stream = Py_NewRef(current_stream);
    self->stream_handle = Py_NewRef(stream_handle);
    self->pointer_of = Py_NewRef(pointer_of);
    self->launch_error = Py_NewRef(launch_error);
    self->last_launched = Py_NewRef(last_launched);
    return (PyObject *)self;
}

static int cuda_traverse(CudaLauncher *self, visitproc visit, void *arg) {
    Py_VISIT(self->torch_stream);
    Py_VISIT(self->current_stream);
    Py_VISIT(self->stream_handle);
    Py_VISIT(self->pointer_of);
    Py_VISIT(self->launch_error);
    Py_VISIT(self->last_launched);
    return 0;
}

static int cuda_clear(CudaLauncher *self) {
    Py_CLEAR(self->name);
    Py_CLEAR(self->kind_names);
    Py_CLEAR(self->arg_names);
    Py_CLEAR(self->torch_stream);
    Py_CLEAR(self->current_stream);
    Py_CLEAR(self->stream_handle);
    Py_CLEAR(self->pointer_of);
    Py_CLEAR(self->launch_error);
    Py_CLEAR(self->last_launched);
    return 0;
}

static void cuda_dealloc(CudaLauncher *self) {
    PyObject_GC_UnTrack(self);
    cuda_clear(self);
    PyMem_Free(self->kinds);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *cuda_repr(CudaLauncher *self) {
    return PyUnicode_FromFormat("<native launcher of %R>", self->name);
}

PyTypeObject CudaLauncherType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tilecraft_launchers.CudaLauncher",
    .tp_doc = PyDoc_STR("launcher(grid, stream, *values): a CUDA kernel's launch through "
                        "cuLaunchKernel"),
    .tp_basicsize = sizeof(CudaLauncher),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = cuda_new,
    .tp_dealloc = (destructor)cuda_dealloc,
    .tp_traverse = (traverseproc)cuda_traverse,
    .tp_clear = (inquiry)cuda_clear,
    .tp_repr = (reprfunc)cuda_repr,
    .tp_vectorcall_offset = offsetof(CudaLauncher, vectorcall),
    .tp_call = PyVectorcall_Call,
};

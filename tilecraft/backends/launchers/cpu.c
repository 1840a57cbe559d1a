/* CpuLauncher: ``launcher(grid, stream, *values)`` runs a compiled CPU kernel with no print
 * and no assertion in this thread where the runtime would run it there (one program, or
 * programs too cheap for several threads) and times it; any other launch, and any value it
 * cannot pack, goes to the Python launcher it was given (runtime/cpu_driver.py), which owns the
 * thread pool and the error messages. Made with ``direct=False`` (a quick build, whose time the
 * Python launcher counts), it hands every launch on until ``retarget(address)`` gives it the
 * optimized build's code. */
#include "common.h"

typedef void (*CpuKernel)(void *args, int32_t grid_x, int32_t grid_y, int32_t grid_z,
                          int64_t begin, int64_t end, void *ctx);

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    CpuKernel kernel;
    void *context;            /* the abort flag no one writes */
    Py_ssize_t count;
    unsigned char *kinds;
    double program_seconds;   /* what one program cost at the last launch; NaN: not measured */
    double min_chunk_seconds; /* less work than this for a second thread: run in this one */
    int direct;               /* 0: every launch goes to the fallback */
    PyObject *fallback;       /* launch_values(grid, stream, *values) in Python */
} CpuLauncher;

static double seconds_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

static PyObject *cpu_launch(PyObject *callable, PyObject *const *args, size_t nargsf,
                            PyObject *kwnames) {
    CpuLauncher *self = (CpuLauncher *)callable;
    Py_ssize_t given = PyVectorcall_NARGS(nargsf);
    long long dims[3];
    if (!self->direct || (kwnames != NULL && PyTuple_GET_SIZE(kwnames)) ||
        given != self->count + 2 || !PyTuple_CheckExact(args[0])) {
        goto fallback;
    }
    if (tc_grid_dims(args[0], dims) < 0) {
        PyErr_Clear();
        goto fallback;
    }
    if (dims[0] < 0 || dims[1] < 0 || dims[2] < 0 || (dims[0] | dims[1] | dims[2]) >> 31) {
        goto fallback;  /* the Python launcher names the bad grid */
    }
    long long total;
    if (__builtin_mul_overflow(dims[0] * dims[1], dims[2], &total)) {
        goto fallback;
    }
    if (total == 0) {
        Py_RETURN_NONE;
    }
    int in_this_thread = total == 1 ||
        (!isnan(self->program_seconds) &&
         (long long)((double)total * self->program_seconds / self->min_chunk_seconds) <= 1);
    if (!in_this_thread) {
        goto fallback;
    }
    Frame frame;
    if (tc_frame_open(&frame, self->count) < 0) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < self->count; i++) {
        if (tc_pack_value(self->kinds[i], args[2 + i], &frame.slots[i]) < 0) {
            PyErr_Clear();
            tc_frame_close(&frame);
            goto fallback;
        }
    }
    double start = seconds_now();
    Py_BEGIN_ALLOW_THREADS
    self->kernel(frame.slots, (int32_t)dims[0], (int32_t)dims[1], (int32_t)dims[2], 0, total,
                 self->context);
    Py_END_ALLOW_THREADS
    self->program_seconds = (seconds_now() - start) / (double)total;
    tc_frame_close(&frame);
    Py_RETURN_NONE;
fallback:
    return PyObject_Vectorcall(self->fallback, args, nargsf, kwnames);
}

static PyObject *cpu_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *kind_names, *fallback;
    unsigned long long kernel, context;
    double min_chunk_seconds;
    int direct = 1;
    static char *keywords[] = {"kinds", "kernel", "context", "fallback", "min_chunk_seconds",
                               "direct", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!KKOd|p:CpuLauncher", keywords,
                                     &PyTuple_Type, &kind_names, &kernel, &context, &fallback,
                                     &min_chunk_seconds, &direct)) {
        return NULL;
    }
    if (kernel == 0) {
        PyErr_SetString(PyExc_ValueError, "CpuLauncher: the kernel's address is 0");
        return NULL;
    }
    CpuLauncher *self = (CpuLauncher *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->kinds = tc_parse_kinds(kind_names, &self->count, 0);
    if (self->kinds == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    self->vectorcall = cpu_launch;
    self->kernel = (CpuKernel)(uintptr_t)kernel;
    self->context = (void *)(uintptr_t)context;
    self->program_seconds = NAN;
    self->min_chunk_seconds = min_chunk_seconds;
    self->direct = direct;
    self->fallback = Py_NewRef(fallback);
    return (PyObject *)self;
}

static int cpu_traverse(CpuLauncher *self, visitproc visit, void *arg) {
    Py_VISIT(self->fallback);
    return 0;
}

static int cpu_clear(CpuLauncher *self) {
    Py_CLEAR(self->fallback);
    return 0;
}

static void cpu_dealloc(CpuLauncher *self) {
    PyObject_GC_UnTrack(self);
    cpu_clear(self);
    PyMem_Free(self->kinds);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *cpu_get_seconds(CpuLauncher *self, void *closure) {
    if (isnan(self->program_seconds)) {
        Py_RETURN_NONE;
    }
    return PyFloat_FromDouble(self->program_seconds);
}

static int cpu_set_seconds(CpuLauncher *self, PyObject *value, void *closure) {
    if (value == NULL || value == Py_None) {
        self->program_seconds = NAN;
        return 0;
    }
    double seconds = PyFloat_AsDouble(value);
    if (seconds == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    self->program_seconds = seconds;
    return 0;
}

static PyObject *cpu_retarget(CpuLauncher *self, PyObject *address) {
    unsigned long long kernel = PyLong_AsUnsignedLongLong(address);
    if (kernel == (unsigned long long)-1 && PyErr_Occurred()) {
        return NULL;
    }
    if (kernel == 0) {
        PyErr_SetString(PyExc_ValueError, "CpuLauncher.retarget: the kernel's address is 0");
        return NULL;
    }
    self->kernel = (CpuKernel)(uintptr_t)kernel;
    self->program_seconds = NAN;
    self->direct = 1;
    Py_RETURN_NONE;
}

static PyMethodDef cpu_methods[] = {
    {"retarget", (PyCFunction)cpu_retarget, METH_O,
     PyDoc_STR("retarget(address): launches run the kernel at address from now on, untimed "
               "yet, in this thread where they may")},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef cpu_getset[] = {
    {"program_seconds", (getter)cpu_get_seconds, (setter)cpu_set_seconds,
     PyDoc_STR("what one program cost at the kernel's last timed launch (None: not timed)"),
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject CpuLauncherType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tilecraft_launchers.CpuLauncher",
    .tp_doc = PyDoc_STR("launcher(grid, stream, *values): a compiled CPU kernel run in this "
                        "thread, or the Python launcher's launch"),
    .tp_basicsize = sizeof(CpuLauncher),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = cpu_new,
    .tp_dealloc = (destructor)cpu_dealloc,
    .tp_traverse = (traverseproc)cpu_traverse,
    .tp_clear = (inquiry)cpu_clear,
    .tp_getset = cpu_getset,
    .tp_methods = cpu_methods,
    .tp_vectorcall_offset = offsetof(CpuLauncher, vectorcall),
    .tp_call = PyVectorcall_Call,
};

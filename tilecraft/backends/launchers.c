/* tilecraft's native launchers: a kernel launch from Python with no Python code in between.
 *
 * Built at run time by tilecraft/backends/native.py with the system C compiler and loaded as
 * the extension module `tilecraft_launchers`. It defines two callable types, each called as
 * ``launcher(grid, stream, *values)`` (the launch fast path's calling convention):
 *
 * - CudaLauncher: packs the values into 8-byte slots by the kernel's argument kinds and calls
 *   the driver's cuLaunchKernel (its address given at construction) with the GIL released.
 *   What needs Python (a pointer argument that is not an int, a stream that is not an int, the
 *   current stream, the text of a driver error) is done by callables the driver module gives.
 * - CpuLauncher: runs a compiled CPU kernel in this thread when the launch is one the runtime
 *   would run there (no print or assertion, one program, or programs too cheap for several
 *   threads) and times it; any other launch, and any value it cannot pack, goes to the Python
 *   launcher it was given, which owns the thread pool and the error messages.
 *
 * Argument kinds are Triton's signature names: ptr, i1, i8, i16, i32, i64, u8, u16, u32, u64,
 * fp16, bf16, fp32, fp64; each value goes, little-endian, at the start of its slot. Values are
 * converted as Python's struct module converts them (struct.pack("<Q" / "<i" / "<e" ...)).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

enum kind { K_PTR, K_I1, K_I8, K_I16, K_I32, K_I64, K_U8, K_U16, K_U32, K_U64, K_FP16, K_BF16,
            K_FP32, K_FP64, K_COUNT };

static const char *const KIND_NAMES[K_COUNT] = {
    "ptr", "i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "fp16", "bf16", "fp32",
    "fp64"};

/* Launches with at most this many arguments pack them on the stack. */
#define STACK_SLOTS 32

/* The kinds of a tuple of kind names, as a new array; NULL with an exception for a name that
 * is no kind (bf16 only where `allow_bf16`). */
static unsigned char *parse_kinds(PyObject *names, Py_ssize_t *count, int allow_bf16) {
    if (!PyTuple_Check(names)) {
        PyErr_SetString(PyExc_TypeError, "argument kinds must be a tuple of str");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    unsigned char *kinds = PyMem_Malloc(n ? (size_t)n : 1);
    if (kinds == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        const char *text = PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, i));
        int found = -1;
        for (int k = 0; text != NULL && k < K_COUNT; k++) {
            if (strcmp(text, KIND_NAMES[k]) == 0 && (allow_bf16 || k != K_BF16)) {
                found = k;
            }
        }
        if (found < 0) {
            if (!PyErr_Occurred()) {
                PyErr_Format(PyExc_ValueError, "unknown argument kind %R",
                             PyTuple_GET_ITEM(names, i));
            }
            PyMem_Free(kinds);
            return NULL;
        }
        kinds[i] = (unsigned char)found;
    }
    *count = n;
    return kinds;
}

/* An integer argument as struct takes it (int, or anything with __index__), checked against
 * [low, high] (as signed, or as unsigned when `is_unsigned`). 0, or -1 with an exception. */
static int pack_integer(PyObject *value, int is_unsigned, long long low, unsigned long long high,
                        uint64_t *slot) {
    PyObject *number = PyNumber_Index(value);
    if (number == NULL) {
        return -1;
    }
    int result = -1;
    if (is_unsigned) {
        unsigned long long bits = PyLong_AsUnsignedLongLong(number);
        if (!(bits == (unsigned long long)-1 && PyErr_Occurred())) {
            if (bits <= high) {
                *slot = bits;
                result = 0;
            } else {
                PyErr_SetString(PyExc_OverflowError, "out of range");
            }
        } else {
            PyErr_Clear();
            PyErr_SetString(PyExc_OverflowError, "out of range");
        }
    } else {
        int overflow = 0;
        long long bits = PyLong_AsLongLongAndOverflow(number, &overflow);
        if (!(bits == -1 && PyErr_Occurred())) {
            if (!overflow && bits >= low && bits <= (long long)high) {
                *slot = (uint64_t)bits;
                result = 0;
            } else {
                PyErr_SetString(PyExc_OverflowError, "out of range");
            }
        }
    }
    Py_DECREF(number);
    return result;
}

/* The bfloat16 nearest to a float32 (ties to even; NaN stays NaN), as its 16 bits. */
static uint16_t bf16_bits(uint32_t bits) {
    if ((bits & 0x7FFFFFFFu) > 0x7F800000u) {
        return (uint16_t)((bits >> 16) | 0x0040u);
    }
    return (uint16_t)((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
}

/* Writes `value` as kind `kind` at the start of the 8-byte `slot`; 0, or -1 with an exception
 * (a value the kind cannot hold). */
static int pack_value(int kind, PyObject *value, uint64_t *slot) {
    *slot = 0;
    unsigned char *bytes = (unsigned char *)slot;
    switch (kind) {
    case K_PTR:
    case K_U64:
        if (PyLong_CheckExact(value)) {
            unsigned long long bits = PyLong_AsUnsignedLongLong(value);
            if (bits == (unsigned long long)-1 && PyErr_Occurred()) {
                PyErr_Clear();
                PyErr_SetString(PyExc_OverflowError, "out of range");
                return -1;
            }
            *slot = bits;
            return 0;
        }
        return pack_integer(value, 1, 0, UINT64_MAX, slot);
    case K_I32:
        if (PyLong_CheckExact(value)) {
            int overflow = 0;
            long long bits = PyLong_AsLongLongAndOverflow(value, &overflow);
            if (!overflow && bits >= INT32_MIN && bits <= INT32_MAX) {
                int32_t narrow = (int32_t)bits;
                memcpy(bytes, &narrow, 4);
                return 0;
            }
        }
        {
            uint64_t wide;
            if (pack_integer(value, 0, INT32_MIN, INT32_MAX, &wide) < 0) {
                return -1;
            }
            int32_t narrow = (int32_t)wide;
            memcpy(bytes, &narrow, 4);
            return 0;
        }
    case K_I1: {
        int truth = PyObject_IsTrue(value);
        if (truth < 0) {
            return -1;
        }
        bytes[0] = (unsigned char)truth;
        return 0;
    }
    case K_I8:
    case K_I16:
    case K_I64: {
        int width = kind == K_I8 ? 1 : kind == K_I16 ? 2 : 8;
        long long high = width == 8 ? INT64_MAX : (1LL << (8 * width - 1)) - 1;
        uint64_t wide;
        if (pack_integer(value, 0, -high - 1, (unsigned long long)high, &wide) < 0) {
            return -1;
        }
        memcpy(bytes, &wide, (size_t)width);  /* little-endian hosts only, as CUDA's are */
        return 0;
    }
    case K_U8:
    case K_U16:
    case K_U32: {
        int width = kind == K_U8 ? 1 : kind == K_U16 ? 2 : 4;
        uint64_t wide;
        if (pack_integer(value, 1, 0, (1ULL << (8 * width)) - 1, &wide) < 0) {
            return -1;
        }
        memcpy(bytes, &wide, (size_t)width);
        return 0;
    }
    case K_FP16:
    case K_BF16:
    case K_FP32:
    case K_FP64: {
        double number = PyFloat_AsDouble(value);
        if (number == -1.0 && PyErr_Occurred()) {
            return -1;
        }
        if (kind == K_FP64) {
            memcpy(bytes, &number, 8);
            return 0;
        }
        if (kind == K_FP16) {
            return PyFloat_Pack2(number, (char *)bytes, 1);
        }
        if (PyFloat_Pack4(number, (char *)bytes, 1) < 0) {
            return -1;
        }
        if (kind == K_BF16) {
            uint32_t bits;
            memcpy(&bits, bytes, 4);
            *slot = bf16_bits(bits);
        }
        return 0;
    }
    }
    PyErr_SetString(PyExc_SystemError, "unknown argument kind");
    return -1;
}

/* The three grid dimensions of `grid` (any sequence of three integers). A dimension too large
 * or too small for a long long reads as LLONG_MAX or LLONG_MIN. 0, or -1 with an exception. */
static int grid_dims(PyObject *grid, long long dims[3]) {
    PyObject *items = PySequence_Fast(grid, "the grid must be a sequence of 3 integers");
    if (items == NULL) {
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(items) != 3) {
        PyErr_Format(PyExc_ValueError, "the grid %R does not have 3 dimensions", grid);
        Py_DECREF(items);
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(items, i);
        int overflow = 0;
        long long value = PyLong_AsLongLongAndOverflow(item, &overflow);
        if (value == -1 && PyErr_Occurred()) {
            Py_DECREF(items);
            return -1;
        }
        dims[i] = overflow > 0 ? LLONG_MAX : overflow < 0 ? LLONG_MIN : value;
    }
    Py_DECREF(items);
    return 0;
}

/* Slots and the pointer array of one launch: on the stack for few arguments. */
typedef struct {
    uint64_t stack_slots[STACK_SLOTS];
    void *stack_params[STACK_SLOTS];
    uint64_t *slots;
    void **params;
} Frame;

static int frame_open(Frame *frame, Py_ssize_t count) {
    if (count <= STACK_SLOTS) {
        frame->slots = frame->stack_slots;
        frame->params = frame->stack_params;
    } else {
        frame->slots = PyMem_Malloc((size_t)count * sizeof(uint64_t));
        frame->params = PyMem_Malloc((size_t)count * sizeof(void *));
        if (frame->slots == NULL || frame->params == NULL) {
            PyMem_Free(frame->slots);
            PyMem_Free(frame->params);
            PyErr_NoMemory();
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        frame->params[i] = &frame->slots[i];
    }
    return 0;
}

static void frame_close(Frame *frame) {
    if (frame->slots != frame->stack_slots) {
        PyMem_Free(frame->slots);
        PyMem_Free(frame->params);
    }
}

/* ---- CudaLauncher ------------------------------------------------------------------------ */

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
    PyObject *torch_stream;   /* list: [raw stream of a device, current device] once known */
    PyObject *current_stream; /* () -> int */
    PyObject *stream_handle;  /* (stream) -> int */
    PyObject *pointer_of;     /* (value, name) -> int */
    PyObject *launch_error;   /* (status: int) -> exception */
    PyObject *last_launched;  /* list of one str: the kernel launched last */
} CudaLauncher;

/* The stream handle `stream` names (None: the current stream); 0, or -1 with an exception. */
static int cuda_stream(CudaLauncher *self, PyObject *stream, uint64_t *handle) {
    PyObject *value;
    if (stream == Py_None && PyList_GET_SIZE(self->torch_stream) == 2) {
        PyObject *raw_stream = Py_NewRef(PyList_GET_ITEM(self->torch_stream, 0));
        PyObject *device = PyObject_CallNoArgs(PyList_GET_ITEM(self->torch_stream, 1));
        value = device ? PyObject_CallOneArg(raw_stream, device) : NULL;
        Py_XDECREF(device);
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
    if (grid_dims(args[0], dims) < 0) {
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
    if (frame_open(&frame, self->count) < 0) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < self->count; i++) {
        PyObject *value = args[2 + i];
        int packed;
        if (self->kinds[i] == K_PTR && !PyLong_CheckExact(value)) {
            PyObject *address = PyObject_CallFunctionObjArgs(
                self->pointer_of, value, PyTuple_GET_ITEM(self->arg_names, i), NULL);
            if (address == NULL) {
                frame_close(&frame);
                return NULL;
            }
            packed = pack_value(K_PTR, address, &frame.slots[i]);
            Py_DECREF(address);
        } else {
            packed = pack_value(self->kinds[i], value, &frame.slots[i]);
        }
        if (packed < 0) {
            cuda_packing_error(self, i, value);
            frame_close(&frame);
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
    frame_close(&frame);
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
    self->kinds = parse_kinds(kind_names, &self->count, 1);
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

static PyTypeObject CudaLauncherType = {
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

/* ---- CpuLauncher ------------------------------------------------------------------------- */

typedef void (*CpuKernel)(void *args, int32_t grid_x, int32_t grid_y, int32_t grid_z,
                          int64_t begin, int64_t end, void *ctx);

/* A launch whose programs, at the cost last measured, would give a thread less than this
 * runs in the calling thread (cpu_driver.MIN_CHUNK_SECONDS). */
static const double MIN_CHUNK_SECONDS = 100e-6;

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    CpuKernel kernel;
    void *context;            /* the abort flag no one writes */
    Py_ssize_t count;
    unsigned char *kinds;
    double program_seconds;   /* what one program cost at the last launch; NaN: not measured */
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
    if ((kwnames != NULL && PyTuple_GET_SIZE(kwnames)) || given != self->count + 2 ||
        !PyTuple_CheckExact(args[0])) {
        goto fallback;
    }
    if (grid_dims(args[0], dims) < 0) {
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
         (long long)((double)total * self->program_seconds / MIN_CHUNK_SECONDS) <= 1);
    if (!in_this_thread) {
        goto fallback;
    }
    Frame frame;
    if (frame_open(&frame, self->count) < 0) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < self->count; i++) {
        if (pack_value(self->kinds[i], args[2 + i], &frame.slots[i]) < 0) {
            PyErr_Clear();
            frame_close(&frame);
            goto fallback;
        }
    }
    double start = seconds_now();
    Py_BEGIN_ALLOW_THREADS
    self->kernel(frame.slots, (int32_t)dims[0], (int32_t)dims[1], (int32_t)dims[2], 0, total,
                 self->context);
    Py_END_ALLOW_THREADS
    self->program_seconds = (seconds_now() - start) / (double)total;
    frame_close(&frame);
    Py_RETURN_NONE;
fallback:
    return PyObject_Vectorcall(self->fallback, args, nargsf, kwnames);
}

static PyObject *cpu_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *kind_names, *fallback;
    unsigned long long kernel, context;
    static char *keywords[] = {"kinds", "kernel", "context", "fallback", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!KKO:CpuLauncher", keywords,
                                     &PyTuple_Type, &kind_names, &kernel, &context,
                                     &fallback)) {
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
    self->kinds = parse_kinds(kind_names, &self->count, 0);
    if (self->kinds == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    self->vectorcall = cpu_launch;
    self->kernel = (CpuKernel)(uintptr_t)kernel;
    self->context = (void *)(uintptr_t)context;
    self->program_seconds = NAN;
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

static PyGetSetDef cpu_getset[] = {
    {"program_seconds", (getter)cpu_get_seconds, (setter)cpu_set_seconds,
     PyDoc_STR("what one program cost at the kernel's last timed launch (None: not timed)"),
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CpuLauncherType = {
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
    .tp_vectorcall_offset = offsetof(CpuLauncher, vectorcall),
    .tp_call = PyVectorcall_Call,
};

/* ---- Describer -------------------------------------------------------------------------- */

/* The launch fast path's reading of a kernel's arguments (runtime/fast_launch.py): for each
 * parameter, the part of the specialization key its value decides and the value the launcher
 * packs, as the dispatcher's generated Python computes them. */

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

static PyTypeObject DescriberType = {
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

/* ---- the module -------------------------------------------------------------------------- */

static struct PyModuleDef launchers_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "tilecraft_launchers",
    .m_doc = PyDoc_STR("tilecraft's native kernel launchers (see launchers.c)"),
    .m_size = -1,
};

PyMODINIT_FUNC PyInit_tilecraft_launchers(void) {
    if (PyType_Ready(&CudaLauncherType) < 0 || PyType_Ready(&CpuLauncherType) < 0 ||
        PyType_Ready(&DescriberType) < 0) {
        return NULL;
    }
    PyObject *module = PyModule_Create(&launchers_module);
    if (module == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(module, "CudaLauncher", (PyObject *)&CudaLauncherType) < 0 ||
        PyModule_AddObjectRef(module, "CpuLauncher", (PyObject *)&CpuLauncherType) < 0 ||
        PyModule_AddObjectRef(module, "Describer", (PyObject *)&DescriberType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}

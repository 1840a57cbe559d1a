/* The shared parts of the native launchers (see common.h). */
#include "common.h"

static const char *const KIND_NAMES[K_COUNT] = {
    "ptr", "i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "fp16", "bf16", "fp32",
    "fp64"};

unsigned char *tc_parse_kinds(PyObject *names, Py_ssize_t *count, int allow_bf16) {
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

int tc_pack_value(int kind, PyObject *value, uint64_t *slot) {
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

int tc_grid_dims(PyObject *grid, long long dims[3]) {
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

int tc_frame_open(Frame *frame, Py_ssize_t count) {
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

void tc_frame_close(Frame *frame) {
    if (frame->slots != frame->stack_slots) {
        PyMem_Free(frame->slots);
        PyMem_Free(frame->params);
    }
}

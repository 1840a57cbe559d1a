/* What the native launchers share: argument kinds, packing a value into its 8-byte slot as
 * Python's struct module would (common.c), reading a grid, the slots of one launch, and the
 * module's types (cuda.c, cpu.c, describer.c, dispatcher.c). */
#ifndef TILECRAFT_LAUNCHERS_COMMON_H
#define TILECRAFT_LAUNCHERS_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

enum kind { K_PTR, K_I1, K_I8, K_I16, K_I32, K_I64, K_U8, K_U16, K_U32, K_U64, K_FP16, K_BF16,
            K_FP32, K_FP64, K_COUNT };

/* Launches with at most this many arguments pack them on the stack. */
#define STACK_SLOTS 32

/* The kinds of a tuple of kind names, as a new array (PyMem_Malloc); NULL with an exception for
 * a name that is no kind (bf16 only where `allow_bf16`). */
unsigned char *tc_parse_kinds(PyObject *names, Py_ssize_t *count, int allow_bf16);

/* Writes `value` as kind `kind` at the start of the 8-byte `slot`, as struct.pack would; 0, or
 * -1 with an exception (a value the kind cannot hold). */
int tc_pack_value(int kind, PyObject *value, uint64_t *slot);

/* The three grid dimensions of `grid` (any sequence of three integers). A dimension too large
 * or too small for a long long reads as LLONG_MAX or LLONG_MIN. 0, or -1 with an exception. */
int tc_grid_dims(PyObject *grid, long long dims[3]);

/* Slots and the pointer array of one launch: on the stack for few arguments. */
typedef struct {
    uint64_t stack_slots[STACK_SLOTS];
    void *stack_params[STACK_SLOTS];
    uint64_t *slots;
    void **params;
} Frame;

/* Points `frame`'s slots and pointers at storage for `count` arguments; 0, or -1 with an
 * exception. */
int tc_frame_open(Frame *frame, Py_ssize_t count);
void tc_frame_close(Frame *frame);

/* What a parameter's value decides of the launch fast path's key (describer.c), read without
 * building the key's tuples, so that a launch can be compared with the last one. */
typedef struct {
    PyObject *type;   /* the value's type; NULL where `detail` is the key part Python gave */
    PyObject *detail; /* arrays and tensors: the dtype; constexprs: the value; else NULL */
    int flags;        /* TRAIT_* */
} Trait;
#define TRAIT_CUDA 1    /* a tensor on a CUDA device */
#define TRAIT_ALIGNED 2 /* an address or integer divisible by 16 (specialized parameters) */
#define TRAIT_ONE 4     /* an integer equal to 1 (specialized parameters) */

/* Reads a Describer's parameters `args`: their traits (new references) and the values the
 * launcher packs, one per runtime parameter (new references); the number of values, -2 where a
 * value has no cheap description (nothing is then held), or -1 with an exception. */
Py_ssize_t tc_describe(PyObject *describer, PyObject *const *args, Trait *traits,
                       PyObject **values);
/* The key part of parameter `index` with `trait`, as the generated Python makes it: a new
 * reference, or NULL with an exception. */
PyObject *tc_trait_key(PyObject *describer, const Trait *trait, Py_ssize_t index);
/* Whether two traits give the same key part (0 where either has no type): 1, 0, or -1 with an
 * exception. */
int tc_traits_equal(const Trait *a, const Trait *b);
void tc_trait_clear(Trait *trait);
Py_ssize_t tc_describer_count(PyObject *describer);

extern PyTypeObject CudaLauncherType;
extern PyTypeObject CpuLauncherType;
extern PyTypeObject DescriberType;
extern PyTypeObject DispatcherType;

#endif

/* Dispatcher: the launch fast path (runtime/fast_launch.py) in C. ``dispatcher(grid, *args,
 * **kwargs)`` binds the arguments to the kernel's parameters, reads the backend the environment
 * selects, the launch options, and each parameter (with the kernel's Describer), looks the key
 * up among the fast path's entries and launches through the entry's launcher, returning the
 * entry's compiled kernel: what the dispatcher generated in Python does, without a Python frame.
 *
 * Whatever it does not take (surplus or duplicate arguments, a positional-only parameter given
 * by keyword, an unknown keyword, an option value that is not plain, a value the Describer
 * cannot read, a key with no entry) goes to the generated Python dispatcher, called with the
 * same arguments, which then does everything again, the slow path and its errors included. */
#include "common.h"

#include <structmember.h>

/* Launch options given in one call that the fast path takes. */
#define MAX_OPTIONS 8
/* Parameters bound on the stack. */
#define STACK_PARAMS 32

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    Py_ssize_t count;          /* parameters */
    Py_ssize_t positional;     /* parameters that may be given by position */
    Py_ssize_t positional_only;
    PyObject *names;           /* tuple of str, one per parameter */
    PyObject *defaults;        /* tuple: each parameter's default, or `required` */
    PyObject *required;        /* marks a parameter without a default */
    PyObject *describer;       /* the kernel's Describer */
    PyObject *environ;         /* dict: the data behind os.environ */
    PyObject *environ_keys;    /* tuple: the variables that select the backend, as its keys */
    PyObject *backends;        /* dict: their raw values -> the backend */
    PyObject *launch_options;  /* frozenset of the launch options' names */
    PyObject *plain;           /* frozenset of the option value types the key takes */
    PyObject *entries;         /* dict: key -> fast_launch.Entry */
    PyObject *resolve;         /* (grid, None) -> (x, y, z) */
    PyObject *fallback;        /* the generated Python dispatcher */
    PyObject *stream_name, *compiled_name, *launch_name, *select_name, *empty, *one;
} Dispatcher;

/* The index of parameter `name`, or -1. */
static Py_ssize_t parameter_index(Dispatcher *self, PyObject *name) {
    for (Py_ssize_t i = 0; i < self->count; i++) {
        if (PyTuple_GET_ITEM(self->names, i) == name) {
            return i;
        }
    }
    for (Py_ssize_t i = 0; i < self->count; i++) {
        if (PyUnicode_Compare(PyTuple_GET_ITEM(self->names, i), name) == 0) {
            return i;
        }
    }
    return -1;
}

/* The backend the environment selects (borrowed), or NULL (no exception) where none is known. */
static PyObject *selected_backend(Dispatcher *self) {
    Py_ssize_t n = PyTuple_GET_SIZE(self->environ_keys);
    PyObject *raw = PyTuple_New(n);
    if (raw == NULL) {
        PyErr_Clear();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *value = PyDict_GetItem(self->environ, PyTuple_GET_ITEM(self->environ_keys, i));
        PyTuple_SET_ITEM(raw, i, Py_NewRef(value ? value : Py_None));
    }
    PyObject *backend = PyDict_GetItem(self->backends, raw);
    Py_DECREF(raw);
    return backend;
}

/* The options' key, as the Python dispatcher makes it: ((name, value), ...) sorted by name,
 * without the stream; a new reference, or NULL with an exception. */
static PyObject *option_key(Dispatcher *self, PyObject **names, PyObject **values, int count) {
    if (count == 0) {
        return Py_NewRef(self->empty);
    }
    for (int i = 1; i < count; i++) {  /* insertion sort: a handful of options */
        for (int j = i; j > 0 && PyUnicode_Compare(names[j - 1], names[j]) > 0; j--) {
            PyObject *name = names[j], *value = values[j];
            names[j] = names[j - 1];
            values[j] = values[j - 1];
            names[j - 1] = name;
            values[j - 1] = value;
        }
    }
    PyObject *key = PyTuple_New(count);
    if (key == NULL) {
        return NULL;
    }
    for (int i = 0; i < count; i++) {
        PyObject *item = PyTuple_Pack(2, names[i], values[i]);
        if (item == NULL) {
            Py_DECREF(key);
            return NULL;
        }
        PyTuple_SET_ITEM(key, i, item);
    }
    return key;
}

/* The grid as the launcher takes it, (x, y, z), a new reference; NULL with an exception. */
static PyObject *launch_grid(Dispatcher *self, PyObject *grid, PyObject *const *params) {
    if (PyTuple_CheckExact(grid) && PyTuple_GET_SIZE(grid) == 1) {
        PyObject *x = PyTuple_GET_ITEM(grid, 0);
        int overflow = 0;
        if (PyLong_CheckExact(x) && PyLong_AsLongLongAndOverflow(x, &overflow) >= 0 &&
            overflow >= 0) {
            return PyTuple_Pack(3, x, self->one, self->one);
        }
        PyErr_Clear();
    }
    PyObject *called = NULL;
    if (PyCallable_Check(grid)) {
        PyObject *arguments = PyDict_New();
        if (arguments == NULL) {
            return NULL;
        }
        for (Py_ssize_t i = 0; i < self->count; i++) {
            if (PyDict_SetItem(arguments, PyTuple_GET_ITEM(self->names, i), params[i]) < 0) {
                Py_DECREF(arguments);
                return NULL;
            }
        }
        called = PyObject_CallOneArg(grid, arguments);
        Py_DECREF(arguments);
        if (called == NULL) {
            return NULL;
        }
        grid = called;
    }
    PyObject *resolved = PyObject_CallFunctionObjArgs(self->resolve, grid, Py_None, NULL);
    Py_XDECREF(called);
    return resolved;
}

/* Launches through `entry` with the described `values`; a new reference to the compiled
 * kernel, or NULL with an exception. */
static PyObject *launch_entry(Dispatcher *self, PyObject *entry, PyObject *grid,
                              PyObject *stream, PyObject *values) {
    PyObject *select = PyObject_GetAttr(entry, self->select_name);
    if (select == NULL) {
        return NULL;
    }
    if (select != Py_None) {
        PyObject *selected = PyObject_CallOneArg(select, values);
        Py_DECREF(select);
        if (selected == NULL) {
            return NULL;
        }
        if (!PyTuple_Check(selected)) {
            Py_DECREF(selected);
            PyErr_SetString(PyExc_TypeError, "an entry's select must return a tuple");
            return NULL;
        }
        values = selected;
    } else {
        Py_DECREF(select);
        Py_INCREF(values);
    }
    PyObject *launch = PyObject_GetAttr(entry, self->launch_name);
    PyObject *result = NULL;
    if (launch != NULL) {
        Py_ssize_t n = PyTuple_GET_SIZE(values);
        PyObject *stack[2 + STACK_PARAMS];
        PyObject **arguments = n <= STACK_PARAMS ? stack
                                                 : PyMem_Malloc((size_t)(n + 2) * sizeof(PyObject *));
        if (arguments == NULL) {
            PyErr_NoMemory();
        } else {
            arguments[0] = grid;
            arguments[1] = stream;
            for (Py_ssize_t i = 0; i < n; i++) {
                arguments[2 + i] = PyTuple_GET_ITEM(values, i);
            }
            result = PyObject_Vectorcall(launch, arguments, (size_t)(n + 2), NULL);
            if (arguments != stack) {
                PyMem_Free(arguments);
            }
        }
        Py_DECREF(launch);
    }
    Py_DECREF(values);
    if (result == NULL) {
        return NULL;
    }
    Py_DECREF(result);
    return PyObject_GetAttr(entry, self->compiled_name);
}

/* The launch once the arguments are bound: the compiled kernel (new reference), NULL with an
 * exception, or `self->required` (borrowed) where the Python dispatcher must take it. */
static PyObject *dispatch_bound(Dispatcher *self, PyObject *grid, PyObject *const *params,
                                PyObject **option_names, PyObject **option_values,
                                int options, PyObject *stream) {
    PyObject *backend = selected_backend(self);
    if (backend == NULL) {
        return self->required;
    }
    PyObject *described = PyObject_Vectorcall(self->describer, params, (size_t)self->count, NULL);
    if (described == NULL) {
        return NULL;
    }
    if (described == Py_None) {
        Py_DECREF(described);
        return self->required;
    }
    PyObject *options_key = option_key(self, option_names, option_values, options);
    if (options_key == NULL) {
        Py_DECREF(described);
        return NULL;
    }
    PyObject *key = PyTuple_Pack(3, backend, options_key, PyTuple_GET_ITEM(described, 0));
    Py_DECREF(options_key);
    if (key == NULL) {
        Py_DECREF(described);
        return NULL;
    }
    PyObject *entry = PyDict_GetItemWithError(self->entries, key);
    Py_DECREF(key);
    if (entry == NULL) {
        Py_DECREF(described);
        return PyErr_Occurred() ? NULL : self->required;
    }
    Py_INCREF(entry);
    PyObject *compiled = NULL;
    PyObject *launched = launch_grid(self, grid, params);
    if (launched != NULL) {
        compiled = launch_entry(self, entry, launched, stream, PyTuple_GET_ITEM(described, 1));
        Py_DECREF(launched);
    }
    Py_DECREF(entry);
    Py_DECREF(described);
    return compiled;
}

static PyObject *dispatcher_call(PyObject *callable, PyObject *const *args, size_t nargsf,
                                 PyObject *kwnames) {
    Dispatcher *self = (Dispatcher *)callable;
    Py_ssize_t given = PyVectorcall_NARGS(nargsf);
    Py_ssize_t keywords = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (given < 1 || given - 1 > self->positional || self->count > STACK_PARAMS) {
        goto fallback;
    }
    PyObject *params[STACK_PARAMS];
    for (Py_ssize_t i = 0; i < self->count; i++) {
        params[i] = i < given - 1 ? args[1 + i] : NULL;
    }
    PyObject *option_names[MAX_OPTIONS], *option_values[MAX_OPTIONS];
    int options = 0;
    PyObject *stream = Py_None;
    for (Py_ssize_t k = 0; k < keywords; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k);
        PyObject *value = args[given + k];
        Py_ssize_t index = parameter_index(self, name);
        if (index >= 0) {
            if (index < self->positional_only || params[index] != NULL) {
                goto fallback;
            }
            params[index] = value;
            continue;
        }
        if (PySet_Contains(self->launch_options, name) != 1 ||
            PySet_Contains(self->plain, (PyObject *)Py_TYPE(value)) != 1) {
            PyErr_Clear();
            goto fallback;
        }
        if (PyUnicode_Compare(name, self->stream_name) == 0) {
            stream = value;
        } else if (options == MAX_OPTIONS) {
            goto fallback;
        } else {
            option_names[options] = name;
            option_values[options++] = value;
        }
    }
    for (Py_ssize_t i = 0; i < self->count; i++) {
        if (params[i] == NULL) {
            params[i] = PyTuple_GET_ITEM(self->defaults, i);
            if (params[i] == self->required) {
                goto fallback;
            }
        }
    }
    PyObject *compiled = dispatch_bound(self, args[0], params, option_names, option_values,
                                        options, stream);
    if (compiled != self->required) {
        return compiled;
    }
fallback:
    return PyObject_Vectorcall(self->fallback, args, nargsf, kwnames);
}

static PyObject *dispatcher_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *names, *defaults, *required, *describer, *environ, *environ_keys, *backends;
    PyObject *launch_options, *plain, *entries, *resolve, *fallback;
    Py_ssize_t positional, positional_only;
    static char *keywords[] = {"names", "positional", "positional_only", "defaults", "required",
                               "describer", "environ", "environ_keys", "backends",
                               "launch_options", "plain", "entries", "resolve", "fallback",
                               NULL};
    if (!PyArg_ParseTupleAndKeywords(
            args, kwargs, "O!nnO!OOO!O!O!O!O!O!OO:Dispatcher", keywords, &PyTuple_Type, &names,
            &positional, &positional_only, &PyTuple_Type, &defaults, &required, &describer,
            &PyDict_Type, &environ, &PyTuple_Type, &environ_keys, &PyDict_Type, &backends,
            &PyFrozenSet_Type, &launch_options, &PyFrozenSet_Type, &plain, &PyDict_Type,
            &entries, &resolve, &fallback)) {
        return NULL;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(names);
    if (PyTuple_GET_SIZE(defaults) != count || positional < positional_only ||
        positional > count || positional_only < 0) {
        PyErr_SetString(PyExc_ValueError, "Dispatcher: one default per parameter and "
                        "0 <= positional_only <= positional <= parameters are needed");
        return NULL;
    }
    Dispatcher *self = (Dispatcher *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->vectorcall = dispatcher_call;
    self->count = count;
    self->positional = positional;
    self->positional_only = positional_only;
    self->names = Py_NewRef(names);
    self->defaults = Py_NewRef(defaults);
    self->required = Py_NewRef(required);
    self->describer = Py_NewRef(describer);
    self->environ = Py_NewRef(environ);
    self->environ_keys = Py_NewRef(environ_keys);
    self->backends = Py_NewRef(backends);
    self->launch_options = Py_NewRef(launch_options);
    self->plain = Py_NewRef(plain);
    self->entries = Py_NewRef(entries);
    self->resolve = Py_NewRef(resolve);
    self->fallback = Py_NewRef(fallback);
    self->stream_name = PyUnicode_InternFromString("stream");
    self->compiled_name = PyUnicode_InternFromString("compiled");
    self->launch_name = PyUnicode_InternFromString("launch");
    self->select_name = PyUnicode_InternFromString("select");
    self->empty = PyTuple_New(0);
    self->one = PyLong_FromLong(1);
    if (self->one == NULL || self->stream_name == NULL || self->compiled_name == NULL || self->launch_name == NULL ||
        self->select_name == NULL || self->empty == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static int dispatcher_traverse(Dispatcher *self, visitproc visit, void *arg) {
    Py_VISIT(self->names);
    Py_VISIT(self->defaults);
    Py_VISIT(self->required);
    Py_VISIT(self->describer);
    Py_VISIT(self->environ);
    Py_VISIT(self->environ_keys);
    Py_VISIT(self->backends);
    Py_VISIT(self->launch_options);
    Py_VISIT(self->plain);
    Py_VISIT(self->entries);
    Py_VISIT(self->resolve);
    Py_VISIT(self->fallback);
    return 0;
}

static int dispatcher_clear(Dispatcher *self) {
    Py_CLEAR(self->names);
    Py_CLEAR(self->defaults);
    Py_CLEAR(self->required);
    Py_CLEAR(self->describer);
    Py_CLEAR(self->environ);
    Py_CLEAR(self->environ_keys);
    Py_CLEAR(self->backends);
    Py_CLEAR(self->launch_options);
    Py_CLEAR(self->plain);
    Py_CLEAR(self->entries);
    Py_CLEAR(self->resolve);
    Py_CLEAR(self->fallback);
    return 0;
}

static void dispatcher_dealloc(Dispatcher *self) {
    PyObject_GC_UnTrack(self);
    dispatcher_clear(self);
    Py_XDECREF(self->stream_name);
    Py_XDECREF(self->compiled_name);
    Py_XDECREF(self->launch_name);
    Py_XDECREF(self->select_name);
    Py_XDECREF(self->empty);
    Py_XDECREF(self->one);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMemberDef dispatcher_members[] = {
    {"fallback", T_OBJECT, offsetof(Dispatcher, fallback), READONLY,
     PyDoc_STR("the generated Python dispatcher, which takes what this one does not")},
    {NULL},
};

PyTypeObject DispatcherType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tilecraft_launchers.Dispatcher",
    .tp_doc = PyDoc_STR("dispatcher(grid, *args, **kwargs): the launch fast path of a kernel "
                        "(runtime/fast_launch.py), or its Python dispatcher where it misses"),
    .tp_basicsize = sizeof(Dispatcher),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = dispatcher_new,
    .tp_dealloc = (destructor)dispatcher_dealloc,
    .tp_traverse = (traverseproc)dispatcher_traverse,
    .tp_clear = (inquiry)dispatcher_clear,
    .tp_members = dispatcher_members,
    .tp_vectorcall_offset = offsetof(Dispatcher, vectorcall),
    .tp_call = PyVectorcall_Call,
};

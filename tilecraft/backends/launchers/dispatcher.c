/* Dispatcher: the launch fast path (runtime/fast_launch.py) in C. ``dispatcher(grid, *args,
 * **kwargs)`` binds the arguments to the kernel's parameters, reads the backend the environment
 * selects, the launch options, and each parameter (with the kernel's Describer), looks the key
 * up among the fast path's entries and launches through the entry's launcher, returning the
 * entry's compiled kernel: what the dispatcher generated in Python does, without a Python frame.
 * A launch whose backend variables, options and parameter traits (`Trait`) are the last
 * launch's goes through the last launch's entry without building the key (`LastLaunch`): the
 * usual loop of launches of one specialization reads each argument and packs it, no more.
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
/* Variables that select the backend, remembered by the last launch. */
#define MAX_ENVIRON 4

/* The last launch the fast path took: a launch whose backend variables, launch options and
 * parameter traits are the same goes through the same entry without building its key. The
 * remembered objects are held, so an identical pointer is the same object. */
typedef struct {
    int valid;
    PyObject *environ[MAX_ENVIRON]; /* the raw values of the backend variables (or NULL) */
    int options;
    PyObject *option_names[MAX_OPTIONS], *option_values[MAX_OPTIONS];
    Trait traits[STACK_PARAMS];
    Py_ssize_t entries;             /* how many entries there were (they are only added to,
                                       or all cleared) */
    PyObject *select, *launch, *compiled; /* the entry's */
} LastLaunch;

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
    LastLaunch last;
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

/* Reads the raw values of the variables that select the backend into `raw` (borrowed, NULL
 * where unset). */
static void read_environ(Dispatcher *self, PyObject **raw) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(self->environ_keys); i++) {
        raw[i] = PyDict_GetItem(self->environ, PyTuple_GET_ITEM(self->environ_keys, i));
    }
}

/* The backend the raw values `raw` select (borrowed), or NULL (no exception) where none is
 * known. */
static PyObject *selected_backend(Dispatcher *self, PyObject *const *raw) {
    Py_ssize_t n = PyTuple_GET_SIZE(self->environ_keys);
    PyObject *values = PyTuple_New(n);
    if (values == NULL) {
        PyErr_Clear();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyTuple_SET_ITEM(values, i, Py_NewRef(raw[i] ? raw[i] : Py_None));
    }
    PyObject *backend = PyDict_GetItem(self->backends, values);
    Py_DECREF(values);
    return backend;
}

static void forget_last(LastLaunch *last) {
    last->valid = 0;
    for (int i = 0; i < MAX_ENVIRON; i++) {
        Py_CLEAR(last->environ[i]);
    }
    for (int i = 0; i < last->options; i++) {
        Py_CLEAR(last->option_names[i]);
        Py_CLEAR(last->option_values[i]);
    }
    last->options = 0;
    for (int i = 0; i < STACK_PARAMS; i++) {
        tc_trait_clear(&last->traits[i]);
    }
    Py_CLEAR(last->select);
    Py_CLEAR(last->launch);
    Py_CLEAR(last->compiled);
}

/* Whether this launch's backend variables, options and traits are the last launch's: 1, 0, or
 * -1 with an exception. */
static int same_as_last(Dispatcher *self, PyObject *const *raw, PyObject *const *option_names,
                        PyObject *const *option_values, int options, const Trait *traits) {
    LastLaunch *last = &self->last;
    if (!last->valid || last->options != options ||
        PyDict_GET_SIZE(self->entries) != last->entries) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(self->environ_keys); i++) {
        if (raw[i] != last->environ[i]) {
            return 0;
        }
    }
    for (int i = 0; i < options; i++) {
        if (option_names[i] != last->option_names[i] ||
            option_values[i] != last->option_values[i]) {
            return 0;
        }
    }
    for (Py_ssize_t i = 0; i < self->count; i++) {
        int same = tc_traits_equal(&traits[i], &last->traits[i]);
        if (same <= 0) {
            return same;
        }
    }
    return 1;
}

/* Remembers this launch, which goes through `entry`, as the last one; 0, or -1 with an
 * exception. */
static int remember(Dispatcher *self, PyObject *const *raw, PyObject *const *option_names,
                    PyObject *const *option_values, int options, const Trait *traits,
                    PyObject *entry) {
    LastLaunch *last = &self->last;
    forget_last(last);
    PyObject *select = PyObject_GetAttr(entry, self->select_name);
    PyObject *launch = select ? PyObject_GetAttr(entry, self->launch_name) : NULL;
    PyObject *compiled = launch ? PyObject_GetAttr(entry, self->compiled_name) : NULL;
    if (compiled == NULL) {
        Py_XDECREF(select);
        Py_XDECREF(launch);
        return -1;
    }
    last->select = select;
    last->launch = launch;
    last->compiled = compiled;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(self->environ_keys); i++) {
        last->environ[i] = Py_XNewRef(raw[i]);
    }
    for (int i = 0; i < options; i++) {
        last->option_names[i] = Py_NewRef(option_names[i]);
        last->option_values[i] = Py_NewRef(option_values[i]);
    }
    last->options = options;
    for (Py_ssize_t i = 0; i < self->count; i++) {
        last->traits[i] = (Trait){Py_XNewRef(traits[i].type), Py_XNewRef(traits[i].detail),
                                  traits[i].flags};
    }
    last->entries = PyDict_GET_SIZE(self->entries);
    last->valid = 1;
    return 0;
}

/* The options' key, as the Python dispatcher makes it: ((name, value), ...) sorted by name,
 * without the stream; a new reference, or NULL with an exception. */
static PyObject *option_key(Dispatcher *self, PyObject *const *given_names,
                            PyObject *const *given_values, int count) {
    if (count == 0) {
        return Py_NewRef(self->empty);
    }
    PyObject *names[MAX_OPTIONS], *values[MAX_OPTIONS];
    memcpy(names, given_names, (size_t)count * sizeof(PyObject *));
    memcpy(values, given_values, (size_t)count * sizeof(PyObject *));
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

/* Launches through the last launch's entry with the `count` described `values`; 0, or -1 with
 * an exception. */
static int launch_last(Dispatcher *self, PyObject *grid, PyObject *stream,
                       PyObject *const *values, Py_ssize_t count) {
    LastLaunch *last = &self->last;
    PyObject *selected = NULL;
    if (last->select != Py_None) {
        PyObject *read = PyTuple_New(count);
        if (read == NULL) {
            return -1;
        }
        for (Py_ssize_t i = 0; i < count; i++) {
            PyTuple_SET_ITEM(read, i, Py_NewRef(values[i]));
        }
        PyObject *select = Py_NewRef(last->select);  /* (a call may replace the last launch) */
        selected = PyObject_CallOneArg(select, read);
        Py_DECREF(select);
        Py_DECREF(read);
        if (selected == NULL) {
            return -1;
        }
        if (!PyTuple_Check(selected) || PyTuple_GET_SIZE(selected) > STACK_PARAMS) {
            Py_DECREF(selected);
            PyErr_SetString(PyExc_TypeError, "an entry's select must return a tuple");
            return -1;
        }
        values = &PyTuple_GET_ITEM(selected, 0);
        count = PyTuple_GET_SIZE(selected);
    }
    PyObject *arguments[2 + STACK_PARAMS];
    arguments[0] = grid;
    arguments[1] = stream;
    for (Py_ssize_t i = 0; i < count; i++) {
        arguments[2 + i] = values[i];
    }
    PyObject *launch = Py_NewRef(last->launch);
    PyObject *result = PyObject_Vectorcall(launch, arguments, (size_t)(count + 2), NULL);
    Py_DECREF(launch);
    Py_XDECREF(selected);
    if (result == NULL) {
        return -1;
    }
    Py_DECREF(result);
    return 0;
}

/* The launch once the arguments are bound: the compiled kernel (new reference), NULL with an
 * exception, or `self->required` (borrowed) where the Python dispatcher must take it. */
static PyObject *dispatch_bound(Dispatcher *self, PyObject *grid, PyObject *const *params,
                                PyObject **option_names, PyObject **option_values,
                                int options, PyObject *stream) {
    PyObject *raw[MAX_ENVIRON];
    read_environ(self, raw);
    Trait traits[STACK_PARAMS];
    PyObject *values[STACK_PARAMS];
    Py_ssize_t count = tc_describe(self->describer, params, traits, values);
    if (count == -1) {
        return NULL;
    }
    if (count == -2) {
        return self->required;
    }
    PyObject *result = NULL;
    int same = same_as_last(self, raw, option_names, option_values, options, traits);
    if (same < 0) {
        goto done;
    }
    if (!same) {
        PyObject *backend = selected_backend(self, raw);
        if (backend == NULL) {
            result = self->required;
            goto done;
        }
        PyObject *keys = PyTuple_New(self->count);
        if (keys == NULL) {
            goto done;
        }
        for (Py_ssize_t i = 0; i < self->count; i++) {
            PyObject *part = tc_trait_key(self->describer, &traits[i], i);
            if (part == NULL) {
                Py_DECREF(keys);
                goto done;
            }
            PyTuple_SET_ITEM(keys, i, part);
        }
        PyObject *options_key = option_key(self, option_names, option_values, options);
        PyObject *key = options_key ? PyTuple_Pack(3, backend, options_key, keys) : NULL;
        Py_XDECREF(options_key);
        Py_DECREF(keys);
        if (key == NULL) {
            goto done;
        }
        PyObject *entry = PyDict_GetItemWithError(self->entries, key);
        Py_DECREF(key);
        if (entry == NULL) {
            /* (the entries may have been cleared, and refilled to the remembered count) */
            forget_last(&self->last);
            result = PyErr_Occurred() ? NULL : self->required;
            goto done;
        }
        if (remember(self, raw, option_names, option_values, options, traits, entry) < 0) {
            goto done;
        }
    }
    PyObject *compiled = Py_NewRef(self->last.compiled);
    PyObject *launched = launch_grid(self, grid, params);
    if (launched != NULL && launch_last(self, launched, stream, values, count) == 0) {
        result = compiled;
    } else {
        Py_DECREF(compiled);
    }
    Py_XDECREF(launched);
done:
    for (Py_ssize_t i = 0; i < self->count; i++) {
        tc_trait_clear(&traits[i]);
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_DECREF(values[i]);
    }
    return result;
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
    if (PyTuple_GET_SIZE(environ_keys) > MAX_ENVIRON) {
        PyErr_Format(PyExc_ValueError, "Dispatcher: at most %d backend variables",
                     MAX_ENVIRON);
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
    Py_VISIT(self->last.select);
    Py_VISIT(self->last.launch);
    Py_VISIT(self->last.compiled);
    for (int i = 0; i < STACK_PARAMS; i++) {
        Py_VISIT(self->last.traits[i].detail);
    }
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
    forget_last(&self->last);
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

static PyObject *dispatcher_forget(PyObject *self, PyObject *unused) {
    forget_last(&((Dispatcher *)self)->last);
    Py_RETURN_NONE;
}

static PyMethodDef dispatcher_methods[] = {
    {"forget", dispatcher_forget, METH_NOARGS,
     PyDoc_STR("forget() drops the last launch, whose entry the next launch must not reuse "
               "(the entries were cleared)")},
    {NULL},
};

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
    .tp_methods = dispatcher_methods,
    .tp_vectorcall_offset = offsetof(Dispatcher, vectorcall),
    .tp_call = PyVectorcall_Call,
};

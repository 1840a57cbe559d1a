/* tilecraft's native launchers: a kernel launch from Python with no Python code in between.
 *
 * Built at run time by tilecraft/backends/native.py with the system C compiler from the files of
 * this folder, and loaded as the extension module `tilecraft_launchers`, which holds four
 * callable types: CudaLauncher (cuda.c), CpuLauncher (cpu.c), both called as
 * ``launcher(grid, stream, *values)``, the launch fast path's calling convention, Describer
 * (describer.c), which reads a kernel's arguments for the fast path, and Dispatcher
 * (dispatcher.c), the fast path itself.
 *
 * Argument kinds are Triton's signature names: ptr, i1, i8, i16, i32, i64, u8, u16, u32, u64,
 * fp16, bf16, fp32, fp64; each value goes, little-endian, at the start of its 8-byte slot,
 * converted as Python's struct module converts it (struct.pack("<Q" / "<i" / "<e" ...)).
 */
#include "common.h"

static struct PyModuleDef launchers_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "tilecraft_launchers",
    .m_doc = PyDoc_STR("tilecraft's native kernel launchers (see module.c)"),
    .m_size = -1,
};

PyMODINIT_FUNC PyInit_tilecraft_launchers(void) {
    if (PyType_Ready(&CudaLauncherType) < 0 || PyType_Ready(&CpuLauncherType) < 0 ||
        PyType_Ready(&DescriberType) < 0 || PyType_Ready(&DispatcherType) < 0) {
        return NULL;
    }
    PyObject *module = PyModule_Create(&launchers_module);
    if (module == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(module, "CudaLauncher", (PyObject *)&CudaLauncherType) < 0 ||
        PyModule_AddObjectRef(module, "CpuLauncher", (PyObject *)&CpuLauncherType) < 0 ||
        PyModule_AddObjectRef(module, "Describer", (PyObject *)&DescriberType) < 0 ||
        PyModule_AddObjectRef(module, "Dispatcher", (PyObject *)&DispatcherType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}

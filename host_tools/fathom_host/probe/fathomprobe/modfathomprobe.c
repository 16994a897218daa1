// fathomprobe: what the device bench needs and MicroPython does not count by itself.
// The counters live in the build's patched py/gc.c and py/cstack.c (fathom_host/runtime.py
// applies the patches), so mpy-cross, built from the same tree, links without this module.
//   reset()       forget the peaks
//   max_alloc()   largest single heap block requested (gc_alloc / gc_realloc) since reset, bytes
//   stack_peak()  largest C stack use seen by mp_cstack_check since reset, bytes, as
//                 micropython.stack_use() counts it
//   hold(flag)    1: stop counting (nests), 0: count again; the host twins hold while they run,
//                 since on a board their work is done by C drivers, not on the Python heap
#include "py/runtime.h"

extern size_t fathomprobe_max_alloc;
extern mp_uint_t fathomprobe_stack_peak;
extern int fathomprobe_hold;

static mp_obj_t fathomprobe_reset(void) {
    fathomprobe_max_alloc = 0;
    fathomprobe_stack_peak = 0;
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_0(fathomprobe_reset_obj, fathomprobe_reset);

static mp_obj_t fathomprobe_get_max_alloc(void) {
    return mp_obj_new_int_from_uint(fathomprobe_max_alloc);
}
static MP_DEFINE_CONST_FUN_OBJ_0(fathomprobe_max_alloc_obj, fathomprobe_get_max_alloc);

static mp_obj_t fathomprobe_get_stack_peak(void) {
    return mp_obj_new_int_from_uint(fathomprobe_stack_peak);
}
static MP_DEFINE_CONST_FUN_OBJ_0(fathomprobe_stack_peak_obj, fathomprobe_get_stack_peak);

static mp_obj_t fathomprobe_set_hold(mp_obj_t flag) {
    if (mp_obj_is_true(flag)) {
        fathomprobe_hold += 1;
    } else if (fathomprobe_hold > 0) {
        fathomprobe_hold -= 1;
    }
    return MP_OBJ_NEW_SMALL_INT(fathomprobe_hold);
}
static MP_DEFINE_CONST_FUN_OBJ_1(fathomprobe_hold_obj, fathomprobe_set_hold);

static const mp_rom_map_elem_t fathomprobe_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_fathomprobe) },
    { MP_ROM_QSTR(MP_QSTR_reset), MP_ROM_PTR(&fathomprobe_reset_obj) },
    { MP_ROM_QSTR(MP_QSTR_max_alloc), MP_ROM_PTR(&fathomprobe_max_alloc_obj) },
    { MP_ROM_QSTR(MP_QSTR_stack_peak), MP_ROM_PTR(&fathomprobe_stack_peak_obj) },
    { MP_ROM_QSTR(MP_QSTR_hold), MP_ROM_PTR(&fathomprobe_hold_obj) },
};
static MP_DEFINE_CONST_DICT(fathomprobe_globals, fathomprobe_globals_table);

const mp_obj_module_t fathomprobe_module = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&fathomprobe_globals,
};

MP_REGISTER_MODULE(MP_QSTR_fathomprobe, fathomprobe_module);

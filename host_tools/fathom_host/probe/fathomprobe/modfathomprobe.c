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

// reach(obj, exclude=(), stops=()): bytes of the unit's heap blocks reachable from obj, not
// counting what any object in `exclude` reaches, nor entering the objects in `stops` (other
// structures of the breakdown, each charged on its own: the heap watch's per-module and
// per-structure figures).
// A conservative walk like the collector's: every aligned word of a block that points at the
// head of a block in the unit's area is a reference; the twins' area is neither counted nor
// walked. Host tooling only: it allocates nothing on the MicroPython heap (C malloc).
#include <stdlib.h>
#include "py/gc.h"
extern void *fathomprobe_twin_area;
extern size_t fathomprobe_twin_size;

#define SEEN_CAP ((size_t)1 << 17)
#define STACK_CAP ((size_t)1 << 16)
static uintptr_t *reach_seen;
static void **reach_stack;

static bool reach_heap_ptr(const void *q) {
    const char *t = (const char *)fathomprobe_twin_area;
    if (t != NULL && (const char *)q >= t && (const char *)q < t + fathomprobe_twin_size) {
        return false;
    }
    return gc_nbytes(q) > 0;
}

static bool reach_mark(uintptr_t p) {
    size_t h = ((p >> 4) * 2654435761u) & (SEEN_CAP - 1);
    while (reach_seen[h]) {
        if (reach_seen[h] == p) {
            return false;
        }
        h = (h + 1) & (SEEN_CAP - 1);
    }
    reach_seen[h] = p;
    return true;
}

// `entered`: the root may be marked already (a stop): walk it all the same
static size_t reach_walk(mp_obj_t root, bool entered) {
    void *r = MP_OBJ_TO_PTR(root);
    if (!mp_obj_is_obj(root) || !reach_heap_ptr(r) || (!reach_mark((uintptr_t)r) && !entered)) {
        return 0;
    }
    size_t total = 0, sp = 0;
    reach_stack[sp++] = r;
    while (sp) {
        void **p = reach_stack[--sp];
        size_t n = gc_nbytes(p);
        total += n;
        for (size_t i = 0; i < n / sizeof(void *); i++) {
            void *q = p[i];
            if (((uintptr_t)q & (sizeof(void *) - 1)) == 0 && reach_heap_ptr(q) &&
                reach_mark((uintptr_t)q) && sp < STACK_CAP) {
                reach_stack[sp++] = q;
            }
        }
    }
    return total;
}

static mp_obj_t fathomprobe_reach(size_t n_args, const mp_obj_t *args) {
    reach_seen = calloc(SEEN_CAP, sizeof(uintptr_t));
    reach_stack = malloc(STACK_CAP * sizeof(void *));
    if (reach_seen == NULL || reach_stack == NULL) {
        free(reach_seen);
        free(reach_stack);
        mp_raise_msg(&mp_type_MemoryError, MP_ERROR_TEXT("reach: no C memory"));
    }
    if (n_args > 2) {
        size_t len;
        mp_obj_t *items;
        mp_obj_get_array(args[2], &len, &items);
        for (size_t i = 0; i < len; i++) {
            if (mp_obj_is_obj(items[i])) {
                reach_mark((uintptr_t)MP_OBJ_TO_PTR(items[i]));
            }
        }
    }
    if (n_args > 1) {
        size_t len;
        mp_obj_t *items;
        mp_obj_get_array(args[1], &len, &items);
        for (size_t i = 0; i < len; i++) {
            reach_walk(items[i], true);
        }
    }
    // obj itself is a stop while the excluded are walked (they may point at it), then entered
    reach_mark((uintptr_t)MP_OBJ_TO_PTR(args[0]));
    size_t total = mp_obj_is_obj(args[0]) ? reach_walk(args[0], true) : 0;
    free(reach_seen);
    free(reach_stack);
    return mp_obj_new_int_from_uint(total);
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(fathomprobe_reach_obj, 1, 3, fathomprobe_reach);

static const mp_rom_map_elem_t fathomprobe_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_fathomprobe) },
    { MP_ROM_QSTR(MP_QSTR_reset), MP_ROM_PTR(&fathomprobe_reset_obj) },
    { MP_ROM_QSTR(MP_QSTR_max_alloc), MP_ROM_PTR(&fathomprobe_max_alloc_obj) },
    { MP_ROM_QSTR(MP_QSTR_stack_peak), MP_ROM_PTR(&fathomprobe_stack_peak_obj) },
    { MP_ROM_QSTR(MP_QSTR_hold), MP_ROM_PTR(&fathomprobe_hold_obj) },
    { MP_ROM_QSTR(MP_QSTR_reach), MP_ROM_PTR(&fathomprobe_reach_obj) },
};
static MP_DEFINE_CONST_DICT(fathomprobe_globals, fathomprobe_globals_table);

const mp_obj_module_t fathomprobe_module = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&fathomprobe_globals,
};

MP_REGISTER_MODULE(MP_QSTR_fathomprobe, fathomprobe_module);

# fathomprobe: measurement counters for `fathom bench device` (host builds only, never a board).
FATHOMPROBE_DIR := $(USERMOD_DIR)
SRC_USERMOD_C += $(FATHOMPROBE_DIR)/modfathomprobe.c

# Hardware layer: one small module per part (display, buttons, storage, clock), built by hw.build.

# Screens drawn into the display's framebuf; they speak only semantic keys and report their text.

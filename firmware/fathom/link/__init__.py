# The link between units: frames, reliable channel, session (pairing, handshake, seed, resume).

# Host twin of micropython-lib's `aioespnow` (the ESP32 port freezes it with asyncio): ESPNow
# with awaitable receive and send. A coroutine waits on the radio through asyncio's own poller
# (asyncio.core._io_queue), which polls the espnow twin as a stream (ESPNow.ioctl): readable
# while a packet waits, writable once every sent packet has its response; then the call runs
# without waiting, so a task never blocks the loop.
import asyncio

import espnow


class AIOESPNow(espnow.ESPNow):
    async def arecv(self):
        yield asyncio.core._io_queue.queue_read(self)
        return self.recv(0)

    async def airecv(self):
        yield asyncio.core._io_queue.queue_read(self)
        return self.irecv(0)

    async def arecvinto(self, data):
        yield asyncio.core._io_queue.queue_read(self)
        return self.recvinto(data, 0)

    async def asend(self, mac, msg=None, sync=None):
        if msg is None:  # asend(msg): to every peer
            mac, msg = None, mac
        yield asyncio.core._io_queue.queue_write(self)
        return self.send(mac, msg, sync)

    def __aiter__(self):
        return self

    async def __anext__(self):
        return await self.airecv()

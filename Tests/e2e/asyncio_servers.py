"""Loopback servers run by asyncio on a thread of their own (the benchmarks' slow servers)."""
import asyncio


def stop_servers(loop, thread, servers):
    """Closes `servers` and cancels every task of `loop`, which runs on `thread`, then ends both."""
    def cancel_all():
        for server in servers:
            server.close()
        for task in asyncio.all_tasks(loop):
            task.cancel()

    loop.call_soon_threadsafe(cancel_all)
    thread.join(10)
    loop.close()

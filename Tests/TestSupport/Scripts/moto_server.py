"""moto's server (the same WSGI app as the moto_server command) on 127.0.0.1 and a free port.

Prints the port on the first stdout line, then serves until stdin closes (the test process ended).
"""
import sys

from moto.server import ThreadedMotoServer

server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
server.start()
print(server.get_host_and_port()[1], flush=True)
sys.stdin.read()
server.stop()

"""A TCP server on 127.0.0.1 that breaks each client's TLS handshake (python stdlib only).

    python3 handshake_breaker.py reset      read the ClientHello, then reset the connection (RST)
    python3 handshake_breaker.py plaintext  read the ClientHello, answer in plain HTTP, close

Prints its port on the first stdout line and serves until stdin closes.
"""
import socket
import struct
import sys
import threading


def serve(listener, mode):
    while True:
        connection, _ = listener.accept()
        connection.recv(4096)
        if mode == "reset":
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        else:
            connection.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
        connection.close()


def main():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    threading.Thread(target=serve, args=(listener, sys.argv[1]), daemon=True).start()
    print(listener.getsockname()[1], flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()

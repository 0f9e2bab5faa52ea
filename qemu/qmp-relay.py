#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Relay a guest's QMP requests to its QEMU (qemu/boot.sh -Q).

    qemu/qmp-relay.py REQUESTS SOCKET

REQUESTS is the file QEMU writes the guest's fourth serial port
(/dev/ttyS3) into; SOCKET is QEMU's QMP socket. Each line the guest writes
there, a QMP command in JSON (tests/guest/lib/qmp.sh), is sent to QEMU as
it appears; every command and its reply (events left out) go to stdout,
one line each. Ends when QEMU closes the socket.
"""
import json
import socket
import sys
import time


def connect(path):
    for _ in range(600):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            return s
        except OSError:
            s.close()
            time.sleep(0.1)
    sys.exit("qmp-relay: no QMP socket at " + path)


def main():
    reqs, path = sys.argv[1:3]
    sock = connect(path)
    rd = sock.makefile("r")

    def reply():
        while True:
            line = rd.readline()
            if not line:
                sys.exit(0)
            if "event" not in json.loads(line):
                return line.strip()

    reply()  # the greeting
    sock.sendall(b'{"execute": "qmp_capabilities"}\n')
    reply()
    pos, buf = 0, ""
    while True:
        try:
            with open(reqs, "r", errors="replace") as f:
                f.seek(pos)
                data = f.read()
                pos = f.tell()
        except FileNotFoundError:
            data = ""
        buf += data.replace("\r", "")
        while "\n" in buf:
            line, buf = buf.split("\n", 1)
            line = line.strip()
            if not line.startswith("{"):
                continue
            print("-> " + line, flush=True)
            sock.sendall((line + "\n").encode())
            print("<- " + reply(), flush=True)
        # QEMU gone: the socket reads EOF
        sock.setblocking(False)
        try:
            if sock.recv(1, socket.MSG_PEEK) == b"":
                return
        except BlockingIOError:
            pass
        except OSError:
            return
        finally:
            sock.setblocking(True)
        time.sleep(0.05)


if __name__ == "__main__":
    main()

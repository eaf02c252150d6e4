# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# proto_call.py - one request to the service over its Unix socket, as the end-to-end scripts of
# its read requests send it: hello, the request, and the reply's head and unescaped fields.
import socket


def call(sock, verb, fields):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(120)
    s.connect(sock)
    body = "".join("%s: %s\n" % kv for kv in fields)
    s.sendall(("TS1 request hello\nversion: 1\n\nTS1 request %s\n%s\n" % (verb, body)).encode())
    data = b""
    while data.count(b"\n\n") < 2:
        d = s.recv(65536)
        if not d:
            break
        data += d
    s.close()
    lines = data.decode().split("\n\n")[1].split("\n")
    out = [(k, v) for k, _, v in (l.partition(": ") for l in lines[1:])]
    unescape = lambda v: v.replace("\\\\", "\0").replace("\\n", "\n").replace("\\r", "\r").replace("\\t", "\t").replace("\0", "\\")
    return lines[0], [(k, unescape(v)) for k, v in out]


def first(fields, key):
    return next(v for k, v in fields if k == key)

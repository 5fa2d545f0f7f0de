"""A Cyrus SASL (libsasl2) DIGEST-MD5 client speaking the Thrift SASL negotiation, driven through ctypes.

Usage: cyrus_digest_client.py PORT USER PASSWORD MAX_SSF
Connects to 127.0.0.1:PORT as service accumulo/localhost with the given minimum 0 and maximum SSF (0 accepts only
auth). Prints "cyrus: ..." lines saying what libsasl2 did; exits 0 when the negotiation completed, 2 when libsasl2
refused (it then closes the connection without a word, as Cyrus clients do), 3 when libsasl2 or its DIGEST-MD5
plugin cannot be loaded.
"""
import ctypes
import socket
import struct
import sys

START, OK, BAD, ERROR, COMPLETE = 1, 2, 3, 4, 5
SASL_OK, SASL_CONTINUE = 0, 1
SASL_CB_LIST_END, SASL_CB_USER, SASL_CB_AUTHNAME, SASL_CB_PASS = 0, 0x4001, 0x4002, 0x4004
SASL_SSF, SASL_SEC_PROPS = 1, 101


class Callback(ctypes.Structure):
    _fields_ = [("id", ctypes.c_ulong), ("proc", ctypes.c_void_p), ("context", ctypes.c_void_p)]


class SecurityProperties(ctypes.Structure):
    _fields_ = [("min_ssf", ctypes.c_uint), ("max_ssf", ctypes.c_uint), ("maxbufsize", ctypes.c_uint),
                ("security_flags", ctypes.c_uint), ("property_names", ctypes.c_void_p),
                ("property_values", ctypes.c_void_p)]


GETSIMPLE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p),
                             ctypes.POINTER(ctypes.c_uint))
GETSECRET = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int,
                             ctypes.POINTER(ctypes.c_void_p))


def main():
    port, user, password, max_ssf = int(sys.argv[1]), sys.argv[2].encode(), sys.argv[3].encode(), int(sys.argv[4])
    try:
        lib = ctypes.CDLL("libsasl2.so.2")
    except OSError as e:
        print("cyrus: cannot load libsasl2: %s" % e)
        return 3
    lib.sasl_errdetail.restype = ctypes.c_char_p
    lib.sasl_errstring.restype = ctypes.c_char_p
    keep = []

    def simple(context, cb_id, result, length):
        value = user if cb_id in (SASL_CB_USER, SASL_CB_AUTHNAME) else b""
        buffer = ctypes.c_char_p(value)
        keep.append(buffer)
        result[0] = buffer
        if length:
            length[0] = len(value)
        return SASL_OK

    secret = ctypes.create_string_buffer(ctypes.sizeof(ctypes.c_ulong) + len(password) + 1)
    struct.pack_into("L%ds" % len(password), secret, 0, len(password), password)

    def get_secret(conn, context, cb_id, psecret):
        psecret[0] = ctypes.addressof(secret)
        return SASL_OK

    simple_proc, secret_proc = GETSIMPLE(simple), GETSECRET(get_secret)
    callbacks = (Callback * 4)(
        Callback(SASL_CB_USER, ctypes.cast(simple_proc, ctypes.c_void_p), None),
        Callback(SASL_CB_AUTHNAME, ctypes.cast(simple_proc, ctypes.c_void_p), None),
        Callback(SASL_CB_PASS, ctypes.cast(secret_proc, ctypes.c_void_p), None),
        Callback(SASL_CB_LIST_END, None, None))
    if lib.sasl_client_init(callbacks) != SASL_OK:
        print("cyrus: sasl_client_init failed")
        return 3
    conn = ctypes.c_void_p()
    result = lib.sasl_client_new(b"accumulo", b"localhost", None, None, callbacks, 0, ctypes.byref(conn))
    if result != SASL_OK:
        print("cyrus: sasl_client_new: %s" % lib.sasl_errstring(result, None, None).decode())
        return 3
    props = SecurityProperties(0, max_ssf, 65536, 0, None, None)
    lib.sasl_setprop(conn, SASL_SEC_PROPS, ctypes.byref(props))
    out, out_len, mech = ctypes.c_char_p(), ctypes.c_uint(), ctypes.c_char_p()
    result = lib.sasl_client_start(conn, b"DIGEST-MD5", None, ctypes.byref(out), ctypes.byref(out_len),
                                   ctypes.byref(mech))
    if result not in (SASL_OK, SASL_CONTINUE):
        print("cyrus: sasl_client_start: %s" % lib.sasl_errdetail(conn).decode())
        return 3
    sock = socket.create_connection(("127.0.0.1", port))
    try:
        send(sock, START, b"DIGEST-MD5")
        send(sock, OK, ctypes.string_at(out, out_len.value) if out else b"")
        while True:
            status, payload = receive(sock)
            if status in (BAD, ERROR):
                print("cyrus: server refused: %s" % payload.decode("utf-8", "replace"))
                return 2
            result = lib.sasl_client_step(conn, payload, len(payload), None, ctypes.byref(out),
                                          ctypes.byref(out_len))
            if result not in (SASL_OK, SASL_CONTINUE):
                # What a Cyrus client does: no BAD, no reason; it closes the connection.
                print("cyrus: sasl_client_step refused: %s" % lib.sasl_errdetail(conn).decode())
                return 2
            if status == COMPLETE:
                ssf = ctypes.POINTER(ctypes.c_uint)()
                lib.sasl_getprop(conn, SASL_SSF, ctypes.byref(ssf))
                print("cyrus: negotiation complete, ssf %d" % ssf[0])
                return 0
            send(sock, OK, ctypes.string_at(out, out_len.value) if out else b"")
    finally:
        sock.close()


def send(sock, status, payload):
    sock.sendall(struct.pack(">BI", status, len(payload)) + payload)


def receive(sock):
    header = read(sock, 5)
    status, length = struct.unpack(">BI", header)
    return status, read(sock, length)


def read(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError("server closed the connection")
        data += chunk
    return data


if __name__ == "__main__":
    sys.exit(main())

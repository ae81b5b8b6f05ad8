# Sourced by tests/providers/test_*.sh.  make_test_ca DIR writes DIR/ca.pem
# (a CA that exists only for this run) and DIR/server.pem + DIR/server.key (a
# certificate for 127.0.0.1 signed by it); openssl's chatter goes to
# DIR/openssl.log.  Returns non-zero if openssl failed.
make_test_ca() {
    local dir=$1
    (cd "$dir" &&
        openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 1 -subj "/CN=slurm-burst test CA" &&
        openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/CN=127.0.0.1" &&
        printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >ext.cnf &&
        openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 1 \
            -extfile ext.cnf) >"$dir/openssl.log" 2>&1
}

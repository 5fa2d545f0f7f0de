// A stand-in for an Accumulo tablet server's RPC, small enough to read. scripts/generate-thrift.sh (thrift 0.17.0)
// writes its Java into src/main/thrift-gen-java, which is committed, so building the example needs no Thrift compiler.
namespace java io.securethrift.examples.accumulo

service TabletStatus {
  // Who the server says the caller is (from its client certificate) and how the connection is secured.
  string status()
}

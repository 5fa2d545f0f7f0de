// The example's service. scripts/generate-thrift.sh (thrift 0.17.0) writes its Java into src/main/thrift-gen-java,
// which is committed, so building the example needs no Thrift compiler.
namespace java io.securethrift.examples.rpc

service Greeter {
  // Answers with the message, the caller's name as the server authenticated it, and how the connection is secured.
  string greet(1: string message)
}

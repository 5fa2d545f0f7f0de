// Test service shared by the transport tests of every module (published in core's test jar).
namespace java io.securethrift.core.testservice

exception EchoFailure {
  1: string message
}

service EchoService {
  // Returns the payload unchanged.
  binary echo(1: binary payload)
  // Returns the caller's PeerIdentity as the server saw it, as text.
  string whoAmI()
  // Fails with EchoFailure, to test that errors cross the transport.
  void fail(1: string message) throws (1: EchoFailure failure)
}

package io.securethrift.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.thrift.transport.TTransport;
import org.junit.jupiter.api.Test;

/** Proves which libthrift the suite really runs on, so the 0.17.0 pass cannot silently test 0.25.0. */
class ThriftRuntimeVersionTest {
  @Test
  void testsRunOnTheRequestedLibthrift() {
    String wanted = System.getProperty("securethrift.test.thrift.version");
    String jar = TTransport.class.getProtectionDomain().getCodeSource().getLocation().getPath();
    System.out.println("libthrift under test: " + jar);
    assertTrue(jar.endsWith("libthrift-" + wanted + ".jar"), () -> "expected libthrift " + wanted + ", loaded " + jar);
  }
}

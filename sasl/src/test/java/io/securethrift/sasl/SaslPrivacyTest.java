package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.testing.UsesJdkGssapi;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import java.security.Provider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.thrift.TException;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.conscrypt.Conscrypt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * AES-GCM privacy ({@code securethrift.sasl.privacy}) between real peers: a real Kerby KDC for GSSAPI, DIGEST-MD5
 * with a delegation token, the blocking server, and loopback relays that watch or tamper with the data frames. GSSAPI
 * negotiates it inside its security layer exchange, so every data frame is a record; DIGEST-MD5's first data frame
 * each way is the key exchange (hello, answer), and every later one a record.
 */
@ExtendWith(KdcExtension.class)
class SaslPrivacyTest {
  private static final String KEY = "securethrift.sasl.privacy";
  /** Larger than a record, so it is chunked; 200,000 bytes make four records. */
  private static final int LARGE = 1_000_000;
  private static final int MEDIUM = 200_000;
  private static final int FULL_RECORD = GcmRecords.RECORD + GcmRecords.TAG;

  static SecurityConfig server(EmbeddedKdc kdc, SaslMechanism mechanism, SaslPrivacy privacy) {
    return SaslConfigs.server(kdc, mechanism, QualityOfProtection.AUTH_CONF).toBuilder().saslPrivacy(privacy).build();
  }

  static SecurityConfig client(EmbeddedKdc kdc, SaslMechanism mechanism, SaslPrivacy privacy) {
    return SaslConfigs.client(kdc, mechanism, QualityOfProtection.AUTH_CONF).toBuilder().saslPrivacy(privacy)
        .build();
  }

  @ParameterizedTest
  @EnumSource(SaslMechanism.class)
  void aesGcmCarriesSmallAndLargeMessagesBothWays(SaslMechanism mechanism, EmbeddedKdc kdc) throws Exception {
    try (ServerTransportFactory factory = ServerTransportFactory.create(server(kdc, mechanism, SaslPrivacy.AES_GCM));
        EchoServer server = EchoServer.start(factory);
        DataFrameRelay relay = new DataFrameRelay(server.port(), DataFrameRelay.Tamper.NONE,
            DataFrameRelay.Tamper.NONE);
        ClientTransportFactory clients = ClientTransportFactory.create(client(kdc, mechanism, SaslPrivacy.AES_GCM));
        SecuredTransport transport = clients.open(SaslConfigs.HOST, relay.port())) {
      assertEquals(Optional.of(SaslPrivacy.AES_GCM), transport.peerIdentity().privacy());
      assertTrue(transport.peerIdentity().toString().contains("auth-conf/aes-gcm"), transport.peerIdentity()::toString);
      EchoService.Client client = EchoServer.client(transport);
      EchoServer.assertEchoes(client, 0, 1, 300, 70_000, LARGE, 5);
      String caller = client.whoAmI();
      assertTrue(caller.contains(mechanism.mechanismName() + " auth-conf/aes-gcm"), caller);
      for (List<Integer> frames : List.of(relay.clientFrames(), relay.serverFrames())) {
        List<Integer> records = frames.subList(1, frames.size());
        assertTrue(records.stream().allMatch(length -> length >= GcmRecords.TAG && length <= FULL_RECORD),
            records::toString);
        // 70,000 bytes fill one record and 1,000,000 fill fifteen: chunked, never one oversized frame.
        assertTrue(records.stream().filter(length -> length == FULL_RECORD).count() >= 16, records::toString);
      }
    }
  }

  /**
   * A native AES-GCM provider (securethrift's builder option: Conscrypt's or the Amazon Corretto Crypto Provider's) on
   * one side or both: the records are the same bytes, so either side may choose its provider, and a record altered on
   * its way to a native side is refused as by the JDK's.
   */
  @ParameterizedTest
  @CsvSource({"conscrypt,jdk", "jdk,conscrypt", "conscrypt,conscrypt", "accp,jdk", "jdk,accp", "accp,conscrypt"})
  void aNativeProviderOnEitherSideInteroperates(String clientProvider, String serverProvider, EmbeddedKdc kdc)
      throws Exception {
    SecurityConfig serverConfig = server(kdc, SaslMechanism.GSSAPI, SaslPrivacy.AES_GCM).toBuilder()
        .saslPrivacyProvider(provider(serverProvider)).build();
    SecurityConfig clientConfig = client(kdc, SaslMechanism.GSSAPI, SaslPrivacy.AES_GCM).toBuilder()
        .saslPrivacyProvider(provider(clientProvider)).build();
    AtomicBoolean flipping = new AtomicBoolean();
    DataFrameRelay.Tamper flipOnceArmed = (connection, index, payload) -> {
      if (index > 0 && flipping.get()) {
        payload[payload.length / 2] ^= 0x08;
      }
      return List.of(payload);
    };
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory factory = ServerTransportFactory.create(serverConfig);
        EchoServer server = EchoServer.start(factory);
        DataFrameRelay relay = new DataFrameRelay(server.port(), flipOnceArmed, DataFrameRelay.Tamper.NONE);
        ClientTransportFactory clients = ClientTransportFactory.create(clientConfig);
        SecuredTransport transport = clients.open(SaslConfigs.HOST, relay.port())) {
      assertEquals(Optional.of(SaslPrivacy.AES_GCM), transport.peerIdentity().privacy());
      EchoService.Client client = EchoServer.client(transport);
      EchoServer.assertEchoes(client, 0, 1, 300, 70_000, LARGE, 5);
      flipping.set(true);
      assertThrows(TException.class, () -> EchoServer.assertEchoes(client, MEDIUM));
      String warning = log.awaitLines("failed authentication", 1, Duration.ofSeconds(30)).get(0);
      assertTrue(warning.contains("closing connection with") && warning.contains("AES-GCM record"), warning);
    }
  }

  /** The provider a test case names: {@code jdk} is none given (the JVM's list). */
  private static Provider provider(String name) {
    switch (name) {
      case "conscrypt":
        return Conscrypt.newProvider();
      case "accp":
        return AmazonCorrettoCryptoProvider.INSTANCE;
      default:
        return null;
    }
  }

  /** A record altered on its way to the server, each way a man in the middle could: the server refuses it. */
  @ParameterizedTest
  @ValueSource(strings = {"replayed", "reordered", "truncated", "bit-flipped", "tag-only"})
  void tamperedRecordToTheServerIsRefused(String how, EmbeddedKdc kdc) throws Exception {
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory factory = ServerTransportFactory.create(server(kdc, SaslMechanism.GSSAPI,
            SaslPrivacy.AES_GCM));
        EchoServer server = EchoServer.start(factory);
        DataFrameRelay relay = new DataFrameRelay(server.port(), tamper(how), DataFrameRelay.Tamper.NONE);
        ClientTransportFactory clients = ClientTransportFactory.create(client(kdc, SaslMechanism.GSSAPI,
            SaslPrivacy.AES_GCM));
        SecuredTransport transport = clients.open(SaslConfigs.HOST, relay.port())) {
      assertThrows(TException.class, () -> EchoServer.assertEchoes(EchoServer.client(transport), MEDIUM));
      String warning = log.awaitLines("failed authentication", 1, Duration.ofSeconds(30)).get(0);
      assertTrue(warning.contains("closing connection with") && warning.contains("AES-GCM record"), warning);
    }
  }

  /** The same for a record on its way to the client, which refuses it as the server does. */
  @ParameterizedTest
  @ValueSource(strings = {"replayed", "reordered", "truncated", "bit-flipped"})
  void tamperedRecordToTheClientIsRefused(String how, EmbeddedKdc kdc) throws Exception {
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory factory = ServerTransportFactory.create(server(kdc, SaslMechanism.GSSAPI,
            SaslPrivacy.AES_GCM));
        EchoServer server = EchoServer.start(factory);
        DataFrameRelay relay = new DataFrameRelay(server.port(), DataFrameRelay.Tamper.NONE, tamper(how));
        ClientTransportFactory clients = ClientTransportFactory.create(client(kdc, SaslMechanism.GSSAPI,
            SaslPrivacy.AES_GCM));
        SecuredTransport transport = clients.open(SaslConfigs.HOST, relay.port())) {
      TTransportException e = assertThrows(TTransportException.class,
          () -> EchoServer.assertEchoes(EchoServer.client(transport), MEDIUM));
      assertTrue(e.getMessage().contains("failed authentication"), e.getMessage());
      assertTrue(!transport.isOpen(), "the client closed the connection");
      assertEquals(1, log.lines("failed authentication").size(), log::text);
    }
  }

  /** Frame 0 is the key exchange; the tampering hits the records after it. */
  private static DataFrameRelay.Tamper tamper(String how) {
    Map<Integer, byte[]> held = new ConcurrentHashMap<>();
    return (connection, index, payload) -> {
      if (index == 0) {
        return List.of(payload);
      }
      switch (how) {
        case "replayed":
          return index == 1 ? List.of(payload, payload) : List.of(payload);
        case "reordered":
          if (index == 1) {
            held.put(connection, payload);
            return List.of();
          }
          return index == 2 ? List.of(payload, held.remove(connection)) : List.of(payload);
        case "truncated":
          return List.of(index == 1 ? Arrays.copyOf(payload, payload.length - 1) : payload);
        case "bit-flipped":
          if (index == 1) {
            payload[payload.length / 2] ^= 0x08;
          }
          return List.of(payload);
        case "tag-only":
          return List.of(index == 1 ? Arrays.copyOfRange(payload, payload.length - GcmRecords.TAG,
              payload.length) : payload);
        default:
          throw new IllegalArgumentException(how);
      }
    };
  }

  /**
   * Every pairing of the three settings over GSSAPI, which settles privacy inside its own exchange: {@code aes-gcm} on
   * either side never ends in gss (the client fails to open, naming what to set), and a preferring side meets a gss
   * side on gss at once, without a reconnection.
   */
  @ParameterizedTest(name = "client {0}, server {1}: {2}")
  @CsvSource({
      "gss, gss, gss",
      "gss, aes-gcm-preferred, gss",
      "gss, aes-gcm, server requires AES-GCM",
      "aes-gcm-preferred, gss, gss",
      "aes-gcm-preferred, aes-gcm-preferred, aes-gcm",
      "aes-gcm-preferred, aes-gcm, aes-gcm",
      "aes-gcm, gss, client requires AES-GCM",
      "aes-gcm, aes-gcm-preferred, aes-gcm",
      "aes-gcm, aes-gcm, aes-gcm"})
  void settingsMatrix(String clientPrivacy, String serverPrivacy, String outcome, EmbeddedKdc kdc) throws Exception {
    SaslPrivacy clientSide = SaslPrivacy.parse(KEY, clientPrivacy);
    SaslPrivacy serverSide = SaslPrivacy.parse(KEY, serverPrivacy);
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory factory = ServerTransportFactory.create(server(kdc, SaslMechanism.GSSAPI,
            serverSide));
        EchoServer server = EchoServer.start(factory);
        ClientTransportFactory clients = ClientTransportFactory.create(client(kdc, SaslMechanism.GSSAPI,
            clientSide))) {
      if (outcome.endsWith("requires AES-GCM")) {
        TTransportException e = assertThrows(TTransportException.class,
            () -> clients.open(SaslConfigs.HOST, server.port()));
        assertTrue(e.getMessage().contains(outcome.startsWith("server")
            ? "the server requires AES-GCM for auth-conf, which this client does not use (" + KEY + "=gss)"
            : KEY + "=aes-gcm on this client requires AES-GCM"), e.getMessage());
        return;
      }
      try (SecuredTransport transport = clients.open(SaslConfigs.HOST, server.port())) {
        EchoService.Client client = EchoServer.client(transport);
        SaslPrivacy expected = SaslPrivacy.parse(KEY, outcome);
        assertEquals(Optional.of(expected), transport.peerIdentity().privacy());
        EchoServer.assertEchoes(client, 10, MEDIUM);
        String caller = client.whoAmI();
        assertTrue(caller.contains("auth-conf/" + outcome), caller);
      }
      assertEquals(0, log.lines("reconnecting with gss").size(), log::text);
    }
  }

  /**
   * A man in the middle that swallows DIGEST-MD5's hello and hangs up, as a stock server would: an {@code aes-gcm}
   * client fails naming the setting, and an {@code aes-gcm} server refuses the gss connection a {@code preferred}
   * client falls back to, so neither setting is downgraded.
   */
  @Test
  void strippingTheHelloDowngradesNoAesGcmSide(EmbeddedKdc kdc) throws Exception {
    DataFrameRelay.Tamper stripFirstHello = (connection, index, payload) ->
        connection == 0 && index == 0 ? null : List.of(payload);
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory factory = ServerTransportFactory.create(server(kdc, SaslMechanism.DIGEST_MD5,
            SaslPrivacy.AES_GCM));
        EchoServer server = EchoServer.start(factory);
        DataFrameRelay relay = new DataFrameRelay(server.port(), stripFirstHello, DataFrameRelay.Tamper.NONE);
        ClientTransportFactory strict = ClientTransportFactory.create(client(kdc, SaslMechanism.DIGEST_MD5,
            SaslPrivacy.AES_GCM));
        ClientTransportFactory preferring = ClientTransportFactory.create(client(kdc, SaslMechanism.DIGEST_MD5,
            SaslPrivacy.AES_GCM_PREFERRED))) {
      TTransportException e = assertThrows(TTransportException.class,
          () -> strict.open(SaslConfigs.HOST, relay.port()));
      assertTrue(e.getMessage().contains(KEY + "=aes-gcm requires"), e.getMessage());
      try (DataFrameRelay second = new DataFrameRelay(server.port(), stripFirstHello, DataFrameRelay.Tamper.NONE);
          SecuredTransport transport = preferring.open(SaslConfigs.HOST, second.port())) {
        // Not silent: the fallback is logged and the identity says gss.
        assertEquals(Optional.of(SaslPrivacy.GSS), transport.peerIdentity().privacy());
        assertEquals(1, log.lines("reconnecting with gss").size(), log::text);
        assertThrows(TTransportException.class, () -> EchoServer.assertEchoes(EchoServer.client(transport), 10));
        log.awaitLines("without the key exchange this server requires", 1, Duration.ofSeconds(30));
      }
    }
  }

  /**
   * The hello travels wrapped by DIGEST-MD5: a man in the middle who alters it breaks the mechanism's integrity check.
   */
  @Test
  void alteredHelloFailsTheMechanismsIntegrityCheck(EmbeddedKdc kdc) throws Exception {
    DataFrameRelay.Tamper flipHello = (connection, index, payload) -> {
      if (index == 0) {
        payload[payload.length - 1] ^= 1;
      }
      return List.of(payload);
    };
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory factory = ServerTransportFactory.create(server(kdc, SaslMechanism.DIGEST_MD5,
            SaslPrivacy.AES_GCM_PREFERRED));
        EchoServer server = EchoServer.start(factory);
        DataFrameRelay relay = new DataFrameRelay(server.port(), flipHello, DataFrameRelay.Tamper.NONE);
        ClientTransportFactory clients = ClientTransportFactory.create(client(kdc, SaslMechanism.DIGEST_MD5,
            SaslPrivacy.AES_GCM))) {
      TTransportException e = assertThrows(TTransportException.class,
          () -> clients.open(SaslConfigs.HOST, relay.port()));
      assertTrue(e.getMessage().contains(KEY + "=aes-gcm requires"), e.getMessage());
      String warning = log.awaitLines("failed its integrity check", 1, Duration.ofSeconds(30)).get(0);
      assertTrue(warning.contains("closing connection with"), warning);
    }
  }

  /**
   * Stock libthrift clients on the JDK's mechanism keep working against a preferring server (with gss), and a
   * requiring server offers them no layer they know, so they fail to open.
   */
  @UsesJdkGssapi
  @ParameterizedTest
  @EnumSource(value = SaslPrivacy.class, names = {"AES_GCM_PREFERRED", "AES_GCM"})
  void libthriftClient(SaslPrivacy privacy, EmbeddedKdc kdc) throws Exception {
    try (ServerTransportFactory factory = ServerTransportFactory.create(server(kdc, SaslMechanism.GSSAPI, privacy));
        EchoServer server = EchoServer.start(factory)) {
      if (privacy == SaslPrivacy.AES_GCM) {
        TTransportException e = assertThrows(TTransportException.class, () -> LibthriftPeers.client(kdc,
            SaslMechanism.GSSAPI, QualityOfProtection.AUTH_CONF, server.port()));
        assertTrue(e.getMessage().contains("No common protection layer"), e.getMessage());
        return;
      }
      TTransport transport = LibthriftPeers.client(kdc, SaslMechanism.GSSAPI, QualityOfProtection.AUTH_CONF,
          server.port());
      try {
        EchoService.Client client = EchoServer.client(transport);
        EchoServer.assertEchoes(client, 10, MEDIUM);
        String caller = client.whoAmI();
        assertTrue(caller.contains("auth-conf/gss"), caller);
      } finally {
        transport.close();
      }
    }
  }

  /**
   * Against a stock libthrift server on the JDK's mechanism, a preferring client uses gss from the first connection
   * (nothing to fall back from); a requiring one fails to open, naming the setting.
   */
  @UsesJdkGssapi
  @ParameterizedTest
  @EnumSource(value = SaslPrivacy.class, names = {"AES_GCM_PREFERRED", "AES_GCM"})
  void libthriftServer(SaslPrivacy privacy, EmbeddedKdc kdc) throws Exception {
    try (LogCapture log = LogCapture.start();
        EchoServer server = LibthriftPeers.server(kdc, QualityOfProtection.AUTH_CONF);
        ClientTransportFactory clients = ClientTransportFactory.create(client(kdc, SaslMechanism.GSSAPI, privacy))) {
      if (privacy == SaslPrivacy.AES_GCM) {
        TTransportException e = assertThrows(TTransportException.class,
            () -> clients.open(SaslConfigs.HOST, server.port()));
        assertTrue(e.getMessage().contains(KEY + "=aes-gcm on this client requires AES-GCM"), e.getMessage());
        return;
      }
      List<SecuredTransport> opened = new ArrayList<>();
      try {
        for (int i = 0; i < 2; i++) {
          SecuredTransport transport = clients.open(SaslConfigs.HOST, server.port());
          opened.add(transport);
          assertEquals(Optional.of(SaslPrivacy.GSS), transport.peerIdentity().privacy());
          EchoServer.assertEchoes(EchoServer.client(transport), 10, MEDIUM);
        }
      } finally {
        opened.forEach(TTransport::close);
      }
      assertEquals(0, log.lines("reconnecting with gss").size(), log::text);
    }
  }
}

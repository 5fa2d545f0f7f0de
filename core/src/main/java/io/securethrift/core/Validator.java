package io.securethrift.core;

import io.securethrift.core.identity.KerberosName;
import io.securethrift.core.internal.TlsVersions;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A rule one setting's value must follow on its own, whichever way it was given (a typed builder method or a property),
 * together with the words the configuration reference uses for it. Each {@link ConfigProperty} holds its validator, as
 * Kafka's {@code ConfigDef} does; rules that relate two settings stay in {@link SecurityConfig.Builder#build()}.
 */
abstract class Validator {
  /** Any value of the setting's type; the parser has already refused text of the wrong form. */
  static final Validator ANY = new Validator("") {
    @Override
    void check(String key, Object value) {}
  };

  private final String accepted;

  private Validator(String accepted) {
    this.accepted = accepted;
  }

  /** What the reference shows as accepted; empty when any value of the type is. */
  final String accepted() {
    return accepted;
  }

  /** Throws a {@link ConfigException} under {@code key} when the value breaks the rule; null means not set. */
  abstract void check(String key, Object value);

  /** One of a fixed set of tokens, which the setting's parser enforces; only documents them. */
  static <E extends Enum<E>> Validator oneOf(E[] values, Function<E, String> token) {
    return new Validator(Tokens.list(values, token)) {
      @Override
      void check(String key, Object value) {}
    };
  }

  static Validator positiveDuration() {
    return new Validator("greater than 0") {
      @Override
      void check(String key, Object value) {
        Duration d = (Duration) value;
        if (d.isNegative() || d.isZero()) {
          throw new ConfigException(key, "'" + Values.formatDuration(d) + "' must be greater than zero");
        }
      }
    };
  }

  static Validator nonNegativeDuration() {
    return new Validator("0 or more") {
      @Override
      void check(String key, Object value) {
        Duration d = (Duration) value;
        if (d.isNegative()) {
          throw new ConfigException(key, "'" + Values.formatDuration(d) + "' must not be negative");
        }
      }
    };
  }

  static Validator countBetween(int min, int max) {
    return new Validator(min + " to " + max) {
      @Override
      void check(String key, Object value) {
        int n = (Integer) value;
        if (n < min || n > max) {
          throw new ConfigException(key, n + " is outside the accepted range " + min + " to " + max);
        }
      }
    };
  }

  static Validator sizeBetween(long min, long max) {
    return new Validator(Values.formatSize(min) + " to " + max + " bytes") {
      @Override
      void check(String key, Object value) {
        long bytes = (Long) value;
        if (bytes < min || bytes > max) {
          throw new ConfigException(key, bytes + " bytes is outside the accepted range " + Values.formatSize(min)
              + " to " + max + " bytes");
        }
      }
    };
  }

  /** An existing, readable regular file, when set. */
  static Validator readableFile() {
    return new Validator("a readable file") {
      @Override
      void check(String key, Object value) {
        if (value == null) {
          return;
        }
        Path path = (Path) value;
        if (!Files.exists(path)) {
          throw new ConfigException(key, "file " + path + " does not exist");
        }
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
          throw new ConfigException(key, path + " is not a readable file");
        }
      }
    };
  }

  /** Existing, readable regular files, each once. */
  static Validator readableFiles() {
    Validator file = readableFile();
    return new Validator("readable files") {
      @Override
      void check(String key, Object value) {
        List<?> files = (List<?>) value;
        for (Object f : files) {
          file.check(key, f);
        }
        requireDistinct(key, files, "a file");
      }
    };
  }

  /** An absolute http or https URL with a host, when set. */
  static Validator httpUrl() {
    return new Validator("an http or https URL") {
      @Override
      void check(String key, Object value) {
        URI uri = (URI) value;
        if (uri != null && (!("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
            || uri.getHost() == null)) {
          throw new ConfigException(key, "'" + uri + "' is not an http or https URL with a host; give the"
              + " responder's URL, for example http://ocsp.example.com:8080");
        }
      }
    };
  }

  static Validator tlsVersions() {
    return new Validator(TlsVersions.someOf()) {
      @Override
      void check(String key, Object value) {
        List<?> protocols = (List<?>) value;
        if (protocols.isEmpty()) {
          throw new ConfigException(key, "empty; give " + TlsVersions.someOf());
        }
        List<Object> seen = new ArrayList<>();
        for (Object p : protocols) {
          if (!TlsVersions.ACCEPTED.contains(p)) {
            throw new ConfigException(key, "'" + p + "' is not accepted; accepted values: " + TlsVersions.listed()
                + " (older versions are insecure)");
          }
          if (seen.contains(p)) {
            throw new ConfigException(key, "'" + p + "' is listed twice");
          }
          seen.add(p);
        }
      }
    };
  }

  /** IANA names; whether weak suites are allowed depends on another setting and is checked when building. */
  static Validator cipherSuiteNames() {
    return new Validator("IANA suite names with " + CipherSuites.RULE) {
      @Override
      void check(String key, Object value) {
        for (Object suite : (List<?>) value) {
          if (!suite.toString().matches("[A-Z0-9_]+")) {
            throw new ConfigException(key, "'" + suite + "' is not a cipher suite name; use IANA names such as"
                + " TLS_AES_128_GCM_SHA256");
          }
        }
      }
    };
  }

  static Validator qopLevels() {
    return new Validator("one or more of " + Tokens.list(QualityOfProtection.values(), QualityOfProtection::token)
        + ", each once") {
      @Override
      void check(String key, Object value) {
        List<?> qop = (List<?>) value;
        if (qop.isEmpty()) {
          throw new ConfigException(key, "empty; give one or more of auth, auth-int, auth-conf");
        }
        requireDistinct(key, qop, "a level");
      }
    };
  }

  private static void requireDistinct(String key, List<?> values, String what) {
    if (values.stream().distinct().count() != values.size()) {
      throw new ConfigException(key, what + " is listed twice in " + values);
    }
  }

  static Validator kerberosPrimary() {
    return new Validator("a primary alone, without /host or @REALM") {
      @Override
      void check(String key, Object value) {
        String primary = (String) value;
        if (primary == null || primary.isBlank()) {
          throw new ConfigException(key, "empty; give the primary of the server principal, for example accumulo");
        }
        if (primary.contains("/") || primary.contains("@")) {
          throw new ConfigException(key, "'" + primary + "' must be the primary alone, without /host or @REALM");
        }
      }
    };
  }

  static Validator kerberosPrincipal() {
    return new Validator("primary, primary/instance or either with @REALM; an instance of _HOST is the local host") {
      @Override
      void check(String key, Object value) {
        if (value != null) {
          try {
            KerberosName.parse((String) value);
          } catch (IllegalArgumentException e) {
            throw new ConfigException(key, e.getMessage());
          }
        }
      }
    };
  }

  static Validator hostName() {
    return new Validator("a host name alone, without primary/ or @REALM") {
      @Override
      void check(String key, Object value) {
        String host = (String) value;
        if (host != null && (host.contains("/") || host.contains("@"))) {
          throw new ConfigException(key, "'" + host + "' must be a host name alone, without primary/ or @REALM");
        }
      }
    };
  }
}

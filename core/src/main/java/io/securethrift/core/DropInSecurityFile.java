package io.securethrift.core;

import io.securethrift.core.spi.DropIn;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Security;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Writes the security properties file that installs securethrift's drop-in providers (the SASL provider, the
 * Conscrypt drop-in: each a {@link DropIn} on the class path) ahead of the JDK's, for a JVM started with
 * {@code -Djava.security.properties=<file>}. The file lists the drop-ins, then this JVM's own providers in their
 * order less any a drop-in leaves out, then the drop-ins' properties. It is written from the running JVM's list, so
 * write it with the Java that will read it: a list copied from another version could drop or misnumber providers,
 * and the JDK reads the list only up to its first gap.
 *
 * <pre>
 * java -cp "$ACCUMULO_HOME/lib/*" io.securethrift.core.DropInSecurityFile $ACCUMULO_CONF_DIR/securethrift.security
 * java -cp ... io.securethrift.core.DropInSecurityFile --without conscrypt securethrift.security
 * </pre>
 *
 * <p>With no file it prints to standard output.
 */
public final class DropInSecurityFile {
  private static final String PROVIDER_KEY = "security.provider.";

  private DropInSecurityFile() {}

  /** Every drop-in on the class path, by name. */
  public static Map<String, DropIn> available() {
    Map<String, DropIn> found = new TreeMap<>();
    ServiceLoader.load(DropIn.class, DropInSecurityFile.class.getClassLoader()).forEach(d -> found.put(d.name(), d));
    return found;
  }

  /**
   * The file's text for the drop-ins named, in the order named.
   *
   * @throws ConfigException when a name is not a drop-in on the class path
   */
  public static String text(List<String> names) {
    Map<String, DropIn> available = available();
    Builder builder = new Builder();
    for (String name : names) {
      DropIn dropIn = available.get(name);
      if (dropIn == null) {
        throw new ConfigException("drop-in", "'" + name + "' is not on the class path; available: "
            + (available.isEmpty() ? "none (add securethrift-sasl or securethrift-accumulo)"
            : String.join(", ", available.keySet())));
      }
      dropIn.addTo(builder);
    }
    return builder.text();
  }

  /** Writes {@link #text} for the drop-ins named to {@code file} and returns it. */
  public static Path write(Path file, List<String> names) throws IOException {
    return Files.writeString(file, text(names), StandardCharsets.UTF_8);
  }

  /**
   * Writes (or prints) the file for every drop-in on the class path. Arguments: {@code --without NAME} (repeatable)
   * leaves a drop-in out; an optional last argument names the file.
   */
  public static void main(String[] args) throws IOException {
    List<String> names = new ArrayList<>(available().keySet());
    Path file = null;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--without") && i + 1 < args.length) {
        String left = args[++i];
        if (!names.remove(left)) {
          fail("--without " + left + ": not a drop-in on the class path; available: " + available().keySet());
        }
      } else if (file == null && !args[i].startsWith("-")) {
        file = Path.of(args[i]);
      } else {
        fail("usage: DropInSecurityFile [--without NAME]... [FILE]; drop-ins on the class path: "
            + available().keySet());
      }
    }
    if (names.isEmpty()) {
      fail("no drop-in to install: put securethrift-sasl (sasl) or securethrift-accumulo (conscrypt)"
          + " on the class path");
    }
    if (file == null) {
      System.out.print(text(names));
    } else {
      write(file, names);
      System.out.println("wrote " + file + " (" + String.join(", ", names) + ")");
    }
  }

  private static void fail(String message) {
    PrintStream err = System.err;
    err.println(message);
    System.exit(2);
  }

  /** What the drop-ins put in the file; {@link DropIn#addTo} fills it. */
  public static final class Builder {
    private final List<String> first = new ArrayList<>();
    private final Map<String, String> leftOut = new LinkedHashMap<>();
    private final Map<String, String> properties = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();

    Builder() {}

    /**
     * Places {@code provider} ahead of the JDK's providers, after those added before it.
     *
     * @param what one line on what it answers, for the file's comment
     */
    public Builder providerFirst(Class<? extends java.security.Provider> provider, String what) {
      first.add(provider.getName());
      notes.add(provider.getSimpleName() + ": " + what);
      return this;
    }

    /** Leaves the JDK's provider {@code name} out of the list, saying why in the file. */
    public Builder leaveOut(String name, String why) {
      leftOut.put(name, why);
      return this;
    }

    /** Sets the security property {@code key}, saying what it does in the file. */
    public Builder property(String key, String value, String what) {
      properties.put(key, value);
      notes.add(key + ": " + what);
      return this;
    }

    String text() {
      StringBuilder out = new StringBuilder();
      out.append("# securethrift's drop-in providers for Java ")
          .append(System.getProperty("java.specification.version"))
          .append(", written by DropInSecurityFile from that JVM's own list.\n")
          .append("# Pass with -Djava.security.properties=<this file> (one '=' amends the JDK's java.security).\n");
      notes.forEach(n -> out.append("# ").append(n).append('\n'));
      leftOut.forEach((name, why) -> out.append("# Left out: ").append(name).append(": ").append(why).append('\n'));
      List<String> order = new ArrayList<>(first);
      for (String entry : jdkProviders()) {
        String name = entry.split("\\s+", 2)[0];
        if (!leftOut.containsKey(name) && !first.contains(name)) {
          order.add(entry);
        }
      }
      for (int i = 0; i < order.size(); i++) {
        out.append(PROVIDER_KEY).append(i + 1).append('=').append(order.get(i)).append('\n');
      }
      // The JDK's own file would still number providers beyond a shorter list, and they would be read after it.
      if (order.size() < jdkProviders().size()) {
        throw new IllegalStateException("the drop-ins leave out more of the JDK's providers than they add: "
            + leftOut.keySet());
      }
      properties.forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
      return out.toString();
    }

    /** This JVM's configured providers in order, without securethrift's own. */
    private static List<String> jdkProviders() {
      List<String> list = new ArrayList<>();
      for (int i = 1; ; i++) {
        String entry = Security.getProperty(PROVIDER_KEY + i);
        if (entry == null || entry.isBlank()) {
          return list.stream().filter(e -> !e.startsWith("io.securethrift.")).collect(Collectors.toList());
        }
        list.add(entry.trim());
      }
    }
  }
}

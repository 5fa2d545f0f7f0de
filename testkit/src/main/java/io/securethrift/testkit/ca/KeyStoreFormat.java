package io.securethrift.testkit.ca;

/** Key store file formats the JDK reads without extra providers. */
public enum KeyStoreFormat {
  /** PKCS#12, the JDK's default key store type since 9; file extension {@code .p12}. */
  PKCS12("PKCS12", ".p12"),
  /** The JDK's legacy JKS format, still the default of older Accumulo and ZooKeeper set-ups. */
  JKS("JKS", ".jks");

  private final String type;
  private final String extension;

  KeyStoreFormat(String type, String extension) {
    this.type = type;
    this.extension = extension;
  }

  /** Returns the name for {@code KeyStore.getInstance}. */
  public String type() {
    return type;
  }

  /** Returns the file extension, including the dot. */
  public String extension() {
    return extension;
  }
}

package io.securethrift.accumulo;

import io.securethrift.core.ConfigException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UnsupportedEncodingException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Reads a Hadoop configuration file ({@code <configuration><property><name>..</name><value>..</value></property>}),
 * the format of Accumulo 1.x's {@code accumulo-site.xml}. Document type declarations are refused, so the file cannot
 * pull in other files or entities.
 */
final class HadoopXmlFiles {
  private HadoopXmlFiles() {}

  static SourceFile read(Path path) {
    Document document = parse(path);
    Element root = document.getDocumentElement();
    if (!root.getTagName().equals("configuration")) {
      throw new ConfigException(path.toString(), "the root element is <" + root.getTagName()
          + ">; a Hadoop configuration file has <configuration>");
    }
    Map<String, String> entries = new LinkedHashMap<>();
    NodeList properties = root.getElementsByTagName("property");
    for (int i = 0; i < properties.getLength(); i++) {
      Element property = (Element) properties.item(i);
      String name = child(property, "name");
      if (name == null || name.isBlank()) {
        throw new ConfigException(path.toString(), "property number " + (i + 1) + " has no <name>");
      }
      String value = child(property, "value");
      if (entries.put(name.trim(), value == null ? "" : value) != null) {
        throw new ConfigException(name.trim(), "set twice (in " + path + ")");
      }
    }
    return new SourceFile(path, entries);
  }

  private static Document parse(Path path) {
    byte[] content;
    try {
      content = Files.readAllBytes(path);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path, e);
    }
    try {
      return builder().parse(new ByteArrayInputStream(content));
    } catch (SAXParseException e) {
      throw new ConfigException(path.toString(), "not well-formed XML at line " + e.getLineNumber() + ": "
          + e.getMessage());
    } catch (SAXException e) {
      throw new ConfigException(path.toString(), "not well-formed XML: " + e.getMessage());
    } catch (UnsupportedEncodingException e) {
      throw new ConfigException(path.toString(), "declares the encoding " + e.getMessage() + ", which this JVM cannot"
          + " read; write it in UTF-8");
    } catch (IOException e) {
      // The bytes are in memory: the parser's I/O errors are about the content, such as bytes invalid in its encoding.
      throw new ConfigException(path.toString(), "not well-formed XML: " + e.getMessage());
    }
  }

  private static DocumentBuilder builder() {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setXIncludeAware(false);
      factory.setExpandEntityReferences(false);
      DocumentBuilder builder = factory.newDocumentBuilder();
      builder.setErrorHandler(new DefaultHandler());
      return builder;
    } catch (ParserConfigurationException e) {
      throw new IllegalStateException("the JDK's XML parser lacks secure processing", e);
    }
  }

  private static String child(Element parent, String tag) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element && ((Element) n).getTagName().equals(tag)) {
        return n.getTextContent();
      }
    }
    return null;
  }
}

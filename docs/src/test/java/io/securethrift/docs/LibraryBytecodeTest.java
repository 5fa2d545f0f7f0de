package io.securethrift.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Users run the library artifacts on Java 11: no class file of one may be newer than the parent pom's
 * {@code securethrift.library.release}. javac's {@code --release} already keeps newer API out, but only where a
 * module asks for it; this catches a module whose setting drifted. The artifacts are the BOM's, the one list of them;
 * this module depends on each at test scope, so the reactor builds them first and their class files (a
 * {@code target/classes} directory, or the jar) are on this test's class path.
 */
class LibraryBytecodeTest {
  private static final Path BOM = Path.of("../bom/pom.xml");
  private static final int CLASS_MAGIC = 0xCAFEBABE;
  /** Class file major version of Java 1.0 to 1.1 is 45; Java N writes 44 + N. */
  private static final int MAJOR_OFFSET = 44;

  @Test
  void libraryClassFilesRunOnTheLibraryRelease() throws Exception {
    int release = Integer.parseInt(System.getProperty("securethrift.library.release", ""));
    int maxMajor = MAJOR_OFFSET + release;
    Map<String, Path> artifacts = libraryArtifactsOnClassPath();
    List<String> tooNew = new ArrayList<>();
    int checked = 0;
    for (Map.Entry<String, Path> artifact : artifacts.entrySet()) {
      Map<String, Integer> majors = majorVersions(artifact.getValue());
      assertFalse(majors.isEmpty(), artifact.getKey() + " at " + artifact.getValue() + " holds no class file");
      checked += majors.size();
      // The location tells a stale jar from the local repository (build with -am) from a module built too new.
      String where = artifact.getKey() + " (" + artifact.getValue() + "): ";
      majors.forEach((name, major) -> {
        if (major > maxMajor) {
          tooNew.add(where + name + " is class file version " + major + " (Java " + (major - MAJOR_OFFSET) + ")");
        }
      });
    }
    assertTrue(tooNew.isEmpty(), "library artifacts must run on Java " + release + " (class file version at most "
        + maxMajor + "), but " + tooNew.size() + " of " + checked + " class files are newer; set"
        + " maven.compiler.release to ${securethrift.library.release} in the module's pom:\n"
        + String.join("\n", tooNew));
  }

  /** Each of the BOM's artifacts and where the test class path has its classes. */
  private static Map<String, Path> libraryArtifactsOnClassPath() throws Exception {
    String version = System.getProperty("project.version");
    Map<String, Path> found = new LinkedHashMap<>();
    List<String> missing = new ArrayList<>();
    List<Path> classPath = testClassPath();
    for (String artifactId : bomArtifactIds()) {
      Path location = classPath.stream().filter(entry -> isMainArtifact(entry, artifactId, version)).findFirst()
          .orElse(null);
      if (location == null) {
        missing.add(artifactId);
      } else {
        found.put(artifactId, location);
      }
    }
    assertEquals(List.of(), missing, "the BOM's library artifacts must be test dependencies of docs/pom.xml, so this"
        + " test can check their class files; add the missing ones there");
    return found;
  }

  /** The real test class path: surefire runs tests through a manifest-only jar and names the entries here. */
  static List<Path> testClassPath() {
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    return Stream.of(classPath.split(File.pathSeparator)).filter(s -> !s.isEmpty()).map(Path::of)
        .collect(Collectors.toList());
  }

  /** The artifact's jar, or in a reactor build before packaging its module's main output directory. */
  private static boolean isMainArtifact(Path entry, String artifactId, String version) {
    if (Files.isRegularFile(entry)) {
      return entry.getFileName().toString().equals(artifactId + "-" + version + ".jar");
    }
    Path moduleDir = entry.toAbsolutePath().getParent() == null ? null : entry.toAbsolutePath().getParent().getParent();
    if (!entry.getFileName().toString().equals("classes") || moduleDir == null) {
      return false;
    }
    Path pom = moduleDir.resolve("pom.xml");
    try {
      return Files.isRegularFile(pom) && artifactId.equals(text(child(parse(pom).getDocumentElement(), "artifactId")));
    } catch (Exception e) {
      throw new IllegalStateException("cannot read " + pom, e);
    }
  }

  private static List<String> bomArtifactIds() throws Exception {
    Element management = child(parse(BOM).getDocumentElement(), "dependencyManagement");
    NodeList dependencies = child(management, "dependencies").getElementsByTagName("dependency");
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < dependencies.getLength(); i++) {
      ids.add(text(child((Element) dependencies.item(i), "artifactId")));
    }
    assertFalse(ids.isEmpty(), BOM + " lists no artifact");
    return ids;
  }

  /** Class file name to major version, for a directory of class files or a jar. */
  private static Map<String, Integer> majorVersions(Path location) throws IOException {
    Map<String, Integer> majors = new LinkedHashMap<>();
    if (Files.isDirectory(location)) {
      List<Path> classes;
      try (Stream<Path> files = Files.walk(location)) {
        classes = files.filter(f -> f.toString().endsWith(".class")).sorted().collect(Collectors.toList());
      }
      for (Path f : classes) {
        try (InputStream in = Files.newInputStream(f)) {
          majors.put(location.relativize(f).toString(), major(f.toString(), in));
        }
      }
      return majors;
    }
    try (JarFile jar = new JarFile(location.toFile())) {
      for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements(); ) {
        JarEntry entry = entries.nextElement();
        if (entry.getName().endsWith(".class")) {
          try (InputStream in = jar.getInputStream(entry)) {
            majors.put(entry.getName(), major(location + "!" + entry.getName(), in));
          }
        }
      }
    }
    return majors;
  }

  /** A class file starts with the magic number, then the minor and major version (JVMS 4.1). */
  private static int major(String name, InputStream in) throws IOException {
    DataInputStream data = new DataInputStream(in);
    if (data.readInt() != CLASS_MAGIC) {
      throw new IOException(name + " is not a class file");
    }
    data.readUnsignedShort();
    return data.readUnsignedShort();
  }

  private static Document parse(Path pom) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    return factory.newDocumentBuilder().parse(pom.toFile());
  }

  /** The first child element named {@code tag}; direct children only, unlike getElementsByTagName. */
  private static Element child(Element parent, String tag) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element && ((Element) n).getTagName().equals(tag)) {
        return (Element) n;
      }
    }
    throw new IllegalStateException("no <" + tag + "> in <" + parent.getTagName() + ">");
  }

  private static String text(Element element) {
    return element.getTextContent().trim();
  }
}

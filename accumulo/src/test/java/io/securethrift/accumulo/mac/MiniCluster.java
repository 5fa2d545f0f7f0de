package io.securethrift.accumulo.mac;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * The test runs a real MiniAccumuloCluster (Accumulo 2.1 in this JVM, or 1.7 or 3.0 in their own). bin/run-tests runs
 * these on the build's JDK only: its passes on other runtimes exclude the {@value #TAG} tag, since the clusters' own
 * support for Java versions is Accumulo's business, not what those passes check.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Tag(MiniCluster.TAG)
public @interface MiniCluster {
  String TAG = "minicluster";
}

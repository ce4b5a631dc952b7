import java.io.*; import java.nio.file.*; import java.util.*;
import javax.xml.transform.ErrorListener; import javax.xml.transform.TransformerException;
import javax.xml.transform.stream.StreamSource;
import net.sf.saxon.s9api.*;
/**
 * What one rewrite of a stylesheet changes in its time, warm, in one JVM (benchmarks/knockout.py drives it, one JVM
 * per variant): the base stylesheet and the variant, each through a wrapper like ours (a named template running the
 * stylesheet under xsl:try into a serializer), on the same documents (Saxon trees built once, line numbers on),
 * measured in alternating blocks so that the machine's drift touches both alike. Prints the variant's path, the
 * median of the blocks' ratios (variant / base), and the base's and the difference's ms per document.
 *
 *   javac -cp /usr/share/java/Saxon-HE.jar -d build/knockout benchmarks/KnockOut.java
 *   java -Xmx1g -XX:+UseParallelGC -cp /usr/share/java/Saxon-HE.jar:build/knockout KnockOut BASE VARIANT ROUNDS \
 *       PASSES DOCUMENT...
 */
public class KnockOut {
  static final Processor P = new Processor(false);
  static final QName RUN = new QName("urn:ev", "run");

  static XsltExecutable wrap(String path) throws Exception {
    String w = "<xsl:stylesheet version='3.0' xmlns:xsl='http://www.w3.org/1999/XSL/Transform' xmlns:ev='urn:ev'>"
        + "<xsl:import href='" + new File(path).toURI() + "'/><xsl:output method='xml' indent='no'/>"
        + "<xsl:template name='ev:run'><xsl:try><xsl:apply-templates select='.'/><xsl:catch><ev:e/></xsl:catch>"
        + "</xsl:try></xsl:template></xsl:stylesheet>";
    XsltCompiler c = P.newXsltCompiler();
    c.setErrorListener(new ErrorListener() {  // the official stylesheets' warnings (empty xsl:for-each) are noise here
      public void warning(TransformerException e) {}
      public void error(TransformerException e) {}
      public void fatalError(TransformerException e) {}
    });
    return c.compile(new StreamSource(new StringReader(w)));
  }

  static long time(XsltExecutable x, List<XdmNode> docs, int passes) throws Exception {
    long start = System.nanoTime();
    for (int p = 0; p < passes; p++) {
      for (XdmNode d : docs) {
        Xslt30Transformer t = x.load30();
        t.setGlobalContextItem(d);
        t.callTemplate(RUN, P.newSerializer(new ByteArrayOutputStream()));
      }
    }
    return System.nanoTime() - start;
  }

  public static void main(String[] a) throws Exception {
    int rounds = Integer.parseInt(a[2]), passes = Integer.parseInt(a[3]);
    DocumentBuilder db = P.newDocumentBuilder();
    db.setLineNumbering(true);
    List<XdmNode> docs = new ArrayList<>();
    for (int i = 4; i < a.length; i++) docs.add(db.build(new StreamSource(new File(a[i]))));
    XsltExecutable base = wrap(a[0]), variant;
    try {
      variant = wrap(a[1]);
    } catch (SaxonApiException e) {
      System.out.println(a[1] + "\tdoes not compile");
      return;
    }
    for (int i = 0; i < 30; i++) { time(base, docs, 1); time(variant, docs, 1); }  // the JIT
    double[] ratios = new double[rounds];
    long tb = 0, tv = 0;
    for (int k = 0; k < rounds; k++) {
      long b, v;
      if (k % 2 == 0) { b = time(base, docs, passes); v = time(variant, docs, passes); }
      else { v = time(variant, docs, passes); b = time(base, docs, passes); }
      tb += b; tv += v; ratios[k] = (double) v / b;
    }
    Arrays.sort(ratios);
    double n = (double) docs.size() * passes * rounds;
    System.out.printf(Locale.ROOT, "%s\t%.3f\t%.4f\t%+.4f%n", a[1], ratios[rounds / 2], tb / 1e6 / n, (tv - tb) / 1e6 / n);
  }
}

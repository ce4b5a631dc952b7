import java.io.*; import java.lang.management.*; import java.util.*;
import javax.xml.transform.ErrorListener; import javax.xml.transform.TransformerException;
import javax.xml.transform.stream.StreamSource;
import net.sf.saxon.s9api.*;
/**
 * One document's cost per stylesheet run, warm, for several variants of a stylesheet in one JVM (issue 41: what a
 * run costs when almost nothing fires; story in benchmarks/knockout.py): each stylesheet through a wrapper like ours
 * (a named template running it under xsl:try into a serializer), the document's tree built once, a long warm-up
 * (the JIT: 400 runs are far from warm, see knockout.py), then ROUNDS rounds of BLOCK runs of each variant in turn,
 * timed by the thread's CPU time (steadier than the wall clock on a shared machine). Prints each variant's median
 * microseconds per run and the median of its per-round ratios to the first (with the quartiles). SHOW=1 prints each
 * variant's output size first (variants must report alike where that is the point).
 *
 *   javac -cp /usr/share/java/Saxon-HE.jar -d build/fixedcost benchmarks/FixedCost.java
 *   java -XX:+UseParallelGC -Xmn160m -cp /usr/share/java/Saxon-HE.jar:build/fixedcost FixedCost ROUNDS BLOCK \
 *       DOCUMENT BASE.xsl VARIANT.xsl...
 */
public class FixedCost {
  static final Processor P = new Processor(false);
  static final QName RUN = new QName("urn:einvoice-validate:saxon", "run");

  static XsltExecutable wrap(String path) throws Exception {
    String w = "<xsl:stylesheet version='3.0' xmlns:xsl='http://www.w3.org/1999/XSL/Transform'"
        + " xmlns:err='http://www.w3.org/2005/xqt-errors' xmlns:ev='urn:einvoice-validate:saxon'>"
        + "<xsl:import href='" + new File(path).toURI() + "'/><xsl:output method='xml' indent='no'/>"
        + "<xsl:template name='ev:run'><xsl:try><xsl:apply-templates select='.'/><xsl:catch>"
        + "<ev:runtime-error code='{local-name-from-QName($err:code)}'><xsl:value-of select='$err:description'/>"
        + "</ev:runtime-error></xsl:catch></xsl:try></xsl:template></xsl:stylesheet>";
    XsltCompiler c = P.newXsltCompiler();
    c.setErrorListener(new ErrorListener() {  // the official stylesheets' warnings are noise here
      public void warning(TransformerException e) {}
      public void error(TransformerException e) { System.err.println(e.getMessageAndLocation()); }
      public void fatalError(TransformerException e) { System.err.println(e.getMessageAndLocation()); }
    });
    return c.compile(new StreamSource(new StringReader(w)));
  }

  static String output(XsltExecutable x, XdmNode d) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Xslt30Transformer t = x.load30();
    t.setGlobalContextItem(d);
    t.callTemplate(RUN, P.newSerializer(out));
    return out.toString("UTF-8");
  }

  static long time(XsltExecutable x, XdmNode d, int n) throws Exception {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long start = mx.getCurrentThreadCpuTime();
    for (int i = 0; i < n; i++) {
      Xslt30Transformer t = x.load30();
      t.setGlobalContextItem(d);
      t.callTemplate(RUN, P.newSerializer(new ByteArrayOutputStream()));
    }
    return mx.getCurrentThreadCpuTime() - start;
  }

  public static void main(String[] a) throws Exception {
    int rounds = Integer.parseInt(a[0]), block = Integer.parseInt(a[1]), n = a.length - 3;
    XdmNode d = P.newDocumentBuilder().build(new StreamSource(new File(a[2])));
    XsltExecutable[] x = new XsltExecutable[n];
    for (int i = 0; i < n; i++) x[i] = wrap(a[3 + i]);
    if (System.getenv("SHOW") != null) {
      for (int i = 0; i < n; i++) System.out.println(a[3 + i] + ": " + output(x[i], d).length() + " characters");
    }
    for (int w = 0; w < 20000 / block; w++) for (int i = 0; i < n; i++) time(x[i], d, block);  // the JIT
    double[][] per = new double[n][rounds];
    for (int r = 0; r < rounds; r++) for (int i = 0; i < n; i++) per[i][r] = time(x[i], d, block) / 1000.0 / block;
    for (int i = 0; i < n; i++) {
      double[] s = per[i].clone();
      Arrays.sort(s);
      double[] q = new double[rounds];
      for (int r = 0; r < rounds; r++) q[r] = per[i][r] / per[0][r];
      Arrays.sort(q);
      System.out.printf("%8.1f us  ratio %5.3f (%5.3f-%5.3f)  %s%n", s[rounds / 2], q[rounds / 2], q[rounds / 4],
          q[3 * rounds / 4], a[3 + i]);
    }
  }
}

import java.io.*; import java.nio.file.*; import java.util.*;
import javax.xml.XMLConstants; import javax.xml.transform.stream.StreamSource; import javax.xml.validation.*;
import net.sf.saxon.s9api.*;
/**
 * Where the reference's time goes, and ours inside the JVM, per document, in one warm JVM (issue 21: what bounds the
 * ratio). For each business case: Saxon's tree from the bytes (without and with line numbers), the JDK's Xerces XSD
 * validation (the reference's XSD stage), the official CEN and XRechnung stylesheets into a tree (the reference's
 * Schematron stage), and our prepared copies through the wrapper into a serializer (ours). Half the passes warm up.
 *
 *   javac -cp /usr/share/java/Saxon-HE.jar -d build/javastages benchmarks/JavaStages.java
 *   java -XX:+UseParallelGC -cp /usr/share/java/Saxon-HE.jar:build/javastages JavaStages ../shared/rulesets \
 *       build/rules-home/packs 40 ../shared/corpus/xrechnung-testsuite/business-cases/standard/*.xml
 */
public class JavaStages {
  static Processor P = new Processor(false);
  static XsltExecutable comp(String path) throws Exception { return P.newXsltCompiler().compile(new StreamSource(new File(path))); }
  static XsltExecutable wrap(String path) throws Exception {
    String w = "<xsl:stylesheet version='3.0' xmlns:xsl='http://www.w3.org/1999/XSL/Transform' xmlns:err='http://www.w3.org/2005/xqt-errors' xmlns:ev='urn:ev'><xsl:import href='"+new File(path).toURI()+"'/><xsl:output method='xml' indent='no'/><xsl:template name='ev:run'><xsl:try><xsl:apply-templates select='.'/><xsl:catch><ev:e/></xsl:catch></xsl:try></xsl:template></xsl:stylesheet>";
    return P.newXsltCompiler().compile(new StreamSource(new StringReader(w)));
  }
  public static void main(String[] a) throws Exception {
    String R = a[0], H = a[1]; int passes = Integer.parseInt(a[2]);
    List<byte[]> docs = new ArrayList<>(); List<String> names = new ArrayList<>();
    for (int i = 3; i < a.length; i++) { docs.add(Files.readAllBytes(Paths.get(a[i]))); names.add(a[i]); }
    SchemaFactory f = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
    Schema ubl = f.newSchema(new File(R+"/xsd/ubl-2.1/maindoc/UBL-Invoice-2.1.xsd"));
    Schema cii = f.newSchema(new File(R+"/xsd/cii-d16b/CrossIndustryInvoice_100pD16B.xsd"));
    XsltExecutable oCU = comp(R+"/en16931/1.3.16/ubl/xslt/EN16931-UBL-validation.xslt"), oXU = comp(R+"/xrechnung/2.6.0/ubl/XRechnung-UBL-validation.xsl");
    XsltExecutable oCC = comp(R+"/en16931/1.3.16/cii/xslt/EN16931-CII-validation.xslt"), oXC = comp(R+"/xrechnung/2.6.0/cii/XRechnung-CII-validation.xsl");
    XsltExecutable pCU = wrap(H+"/en16931-ubl/1.3.16/prepared/ubl/xslt/EN16931-UBL-validation.xslt"), pXU = wrap(H+"/xrechnung-ubl/2.6.0/prepared/ubl/XRechnung-UBL-validation.xsl");
    XsltExecutable pCC = wrap(H+"/en16931-cii/1.3.16/prepared/cii/xslt/EN16931-CII-validation.xslt"), pXC = wrap(H+"/xrechnung-cii/2.6.0/prepared/cii/XRechnung-CII-validation.xsl");
    DocumentBuilder db = P.newDocumentBuilder(); DocumentBuilder dbl = P.newDocumentBuilder(); dbl.setLineNumbering(true);
    QName run = new QName("urn:ev","run");
    long[] t = new long[8]; String[] lab = {"build","build+lines","xerces-xsd","official CEN","official XR","prepared CEN","prepared XR","-"};
    for (int p = 0; p < passes; p++) {
      boolean measure = p >= passes/2;
      for (int i = 0; i < docs.size(); i++) {
        byte[] b = docs.get(i); boolean isCii = new String(b, 0, Math.min(b.length, 2000)).contains("CrossIndustryInvoice");
        long s0 = System.nanoTime();
        XdmNode d = db.build(new StreamSource(new ByteArrayInputStream(b)));
        long s1 = System.nanoTime();
        XdmNode dl = dbl.build(new StreamSource(new ByteArrayInputStream(b)));
        long s2 = System.nanoTime();
        javax.xml.validation.Validator v = (isCii ? cii : ubl).newValidator();
        try { v.validate(new StreamSource(new ByteArrayInputStream(b))); } catch (Exception e) {}
        long s3 = System.nanoTime();
        Xslt30Transformer x = (isCii ? oCC : oCU).load30(); x.setGlobalContextItem(d); x.applyTemplates(d, new XdmDestination());
        long s4 = System.nanoTime();
        x = (isCii ? oXC : oXU).load30(); x.setGlobalContextItem(d); x.applyTemplates(d, new XdmDestination());
        long s5 = System.nanoTime();
        StringWriter w = new StringWriter();
        x = (isCii ? pCC : pCU).load30(); x.setGlobalContextItem(dl); x.callTemplate(run, P.newSerializer(w));
        long s6 = System.nanoTime();
        w = new StringWriter();
        x = (isCii ? pXC : pXU).load30(); x.setGlobalContextItem(dl); x.callTemplate(run, P.newSerializer(w));
        long s7 = System.nanoTime();
        if (measure) { t[0]+=s1-s0; t[1]+=s2-s1; t[2]+=s3-s2; t[3]+=s4-s3; t[4]+=s5-s4; t[5]+=s6-s5; t[6]+=s7-s6; }
      }
    }
    int n = docs.size() * (passes - passes/2);
    for (int k = 0; k < 7; k++) System.out.printf(Locale.ROOT, "%-14s %.3f ms/doc%n", lab[k], t[k]/1e6/n);
  }
}

import java.io.*;
import java.nio.file.*;
import java.util.*;

/**
 * The reference validator (../shared/reference/RefValidate.java, unchanged) driven in blocks, so that a benchmark can
 * interleave it with our validator while both stay warm (benchmarks/duel.py). It compiles the plan's packs as
 * RefValidate does, then reads commands on stdin, one per line:
 *
 *   run PASSES THREADS   runs PASSES passes over the files on THREADS threads (RefValidate.runPasses, its own
 *                        code: Saxon parse, Xerces XSD, the official stylesheets) and prints "ok DOCS SECONDS CPU"
 *                        (CPU: the process's CPU seconds over the block, every thread included)
 *   quit
 *
 * Compiled beside RefValidate.class (same unnamed package: runPasses and Plan are package-private):
 *   javac -cp /usr/share/java/Saxon-HE.jar:build/reference -d build/reference benchmarks/RefBlocks.java
 * Run from ../shared/rulesets (the plan's paths are relative to it):
 *   java -cp /usr/share/java/Saxon-HE.jar:build/reference RefBlocks ../reference/plan-kosit.tsv FILE...
 */
public class RefBlocks {
    public static void main(String[] args) throws Exception {
        List<RefValidate.Plan> plans = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get(args[0]))) {
            if (line.isBlank() || line.startsWith("#")) continue;
            String[] p = line.split("\t");
            List<String> xslts = p.length > 4 && !p[4].isBlank() ? Arrays.asList(p[4].split(",")) : List.of();
            plans.add(new RefValidate.Plan(p[0], p[1], p[2], p[3], xslts));
        }
        List<String> files = Arrays.asList(args).subList(1, args.length);
        for (RefValidate.Plan p : plans) {
            RefValidate.xsd(p.xsd());
            for (String x : p.xslts()) RefValidate.xslt(x);
        }
        com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        PrintStream none = new PrintStream(OutputStream.nullOutputStream());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        System.out.println("ready");
        System.out.flush();
        String line;
        while ((line = in.readLine()) != null) {
            String[] c = line.trim().split("\\s+");
            if (c[0].equals("quit")) break;
            int passes = Integer.parseInt(c[1]);
            int threads = Integer.parseInt(c[2]);
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            int docs = RefValidate.runPasses(plans, false, passes, threads, files, none);
            double secs = (System.nanoTime() - t0) / 1e9;
            double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
            System.out.printf(Locale.ROOT, "ok %d %.6f %.6f%n", docs, secs, cpu);
            System.out.flush();
        }
    }
}

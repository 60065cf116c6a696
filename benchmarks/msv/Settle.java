package org.cgsuite.core.misere.solver;

import java.util.List;
import org.cgsuite.core.impartial.HeapRuleset;
import org.cgsuite.core.impartial.Periodicity;
import org.cgsuite.core.impartial.PeriodicityChecker;

/**
 * java Settle CODE SECONDS: MisereSolver on an octal code as its command line runs it
 * (CommandLineInterface.runMisereSolver): before each heap the pretending function is given to
 * CGSuite's PeriodicityChecker with TBCode.periodicityChecker's criteria (saltus 0, linear
 * criteria maxHeaps * (preperiod + period) + digits - 1 + maxHeaps <= heaps computed), and the
 * code is solved ("settled") when a period is found. One flushed line per heap:
 * "heap N order Q p P phi X seconds S" (X the new heap's element), "prefn N: v0 v1 ..." after a
 * presentation change, and "settled heap N period R preperiod I order Q p P seconds S".
 * Written for nimlab's benchmarks/bench_misere.py (--census); not part of CGSuite.
 */
public class Settle {
    public static void main(String[] args) {
        String code = args[0];
        MisereSolver s = new MisereSolver(new HeapRuleset(code));
        PeriodicityChecker checker = checker(code);
        long start = System.nanoTime();
        long deadline = start + (long) (Double.parseDouble(args[1]) * 1e9);
        int expansions = s.expansionHeaps.size();
        while (System.nanoTime() < deadline) {
            Pretension p = s.currentPretension();
            Periodicity found = checker.checkSequence(p.prefn);
            if (found != null && found.saltus() == 0) {
                System.out.println("settled heap " + (p.prefn.size() - 1) + " period " + found.period()
                    + " preperiod " + found.preperiod() + " order " + p.quotient.monoid.size()
                    + " p " + p.quotient.pPortionSize() + " seconds " + (System.nanoTime() - start) / 1e9);
                System.out.flush();
                return;
            }
            s.next();
            p = s.currentPretension();
            int heap = p.prefn.size() - 1;
            System.out.println("heap " + heap + " order " + p.quotient.monoid.size() + " p "
                + p.quotient.pPortionSize() + " phi " + p.prefn.get(heap) + " seconds "
                + (System.nanoTime() - start) / 1e9);
            if (s.expansionHeaps.size() != expansions) {
                expansions = s.expansionHeaps.size();
                StringBuilder line = new StringBuilder("prefn " + heap + ":");
                for (int x : p.prefn) line.append(' ').append(x);
                System.out.println(line);
            }
            System.out.flush();
        }
    }

    /** TBCode.periodicityChecker for an octal code "A.d1d2...": digits = A, d1, d2, ... without
     *  trailing zeros; a digit's maxHeaps is 1 + the highest heap count it allows (0 for 0). */
    static PeriodicityChecker checker(String code) {
        String[] parts = code.split("\\.");
        String all = (parts[0].isEmpty() ? "0" : parts[0]) + (parts.length > 1 ? parts[1] : "");
        int length = all.length();
        while (length > 1 && all.charAt(length - 1) == '0') length--;
        int maxHeaps = 0;
        for (int i = 0; i < all.length(); i++) {
            maxHeaps = Math.max(maxHeaps, 32 - Integer.numberOfLeadingZeros(all.charAt(i) - '0'));
        }
        PeriodicityChecker checker = new PeriodicityChecker();
        checker.setLinearCriteria(maxHeaps, maxHeaps, length - 1 + maxHeaps);
        checker.setMaxSaltus(0);
        return checker;
    }
}

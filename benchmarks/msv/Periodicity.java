package org.cgsuite.core.impartial;

/** Stub of CGSuite's Scala case class Periodicity (HeapRuleset.scala), for PeriodicityChecker. */
public class Periodicity {
    private final int period, preperiod, saltus;
    public Periodicity(int period, int preperiod, int saltus) {
        this.period = period; this.preperiod = preperiod; this.saltus = saltus;
    }
    public int period() { return period; }
    public int preperiod() { return preperiod; }
    public int saltus() { return saltus; }
}

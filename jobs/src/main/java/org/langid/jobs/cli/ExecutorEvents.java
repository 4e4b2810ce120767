package org.langid.jobs.cli;

import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorAdded;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One console line when a cluster adds or loses an executor. Spark's own account of a lost
 * executor (ERROR lines, stack traces) goes to the log file; this says what happened and what
 * follows from it. Registered through spark.extraListeners (SparkOptions), hence public.
 */
public final class ExecutorEvents extends SparkListener {

    private static final Logger LOG = LoggerFactory.getLogger(ExecutorEvents.class);

    @Override
    public void onExecutorAdded(SparkListenerExecutorAdded added) {
        LOG.info("executor {} up on {} ({} core(s))", added.executorId(), added.executorInfo().executorHost(),
                added.executorInfo().totalCores());
    }

    @Override
    public void onExecutorRemoved(SparkListenerExecutorRemoved removed) {
        LOG.warn("executor {} lost ({}); Spark runs its unfinished tasks again on the executors left or started anew",
                removed.executorId(), removed.reason());
    }
}

package io.recrawl.frontier;

import java.lang.reflect.Method;

/**
 * {@code SetLogLevel} through Log4j 2, when it is the logging back-end (as under {@code
 * bin/recrawl}); looked up at run time, so that the service does not impose a back-end.
 */
final class LogLevels {

  private LogLevels() {}

  /** Sets {@code logger}'s level; false when Log4j 2 is not there. */
  static boolean set(String logger, String level) {
    try {
      Class<?> levels = Class.forName("org.apache.logging.log4j.Level");
      Class<?> configurator = Class.forName("org.apache.logging.log4j.core.config.Configurator");
      Object l = levels.getMethod("toLevel", String.class).invoke(null, level);
      Method setLevel = configurator.getMethod("setLevel", String.class, levels);
      setLevel.invoke(null, logger, l);
      return true;
    } catch (ReflectiveOperationException | LinkageError absent) {
      return false;
    }
  }
}

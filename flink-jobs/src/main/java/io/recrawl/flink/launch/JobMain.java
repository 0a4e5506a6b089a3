package io.recrawl.flink.launch;

import java.util.Arrays;

/**
 * Entry point of the shaded job jar: {@code flink run recrawl-job.jar run --config FILE}. The word
 * {@code run} is optional, so that the jar's command line reads as {@code bin/recrawl run}'s.
 */
public final class JobMain {

  private JobMain() {}

  public static void main(String[] args) throws Exception {
    String[] rest =
        args.length > 0 && args[0].equals("run") ? Arrays.copyOfRange(args, 1, args.length) : args;
    if (rest.length > 0 && (rest[0].equals("--help") || rest[0].equals("help"))) {
      System.out.println(RunCommand.USAGE);
      return;
    }
    int rc = RunCommand.run(rest);
    if (rc != 0) {
      System.exit(rc);
    }
  }
}

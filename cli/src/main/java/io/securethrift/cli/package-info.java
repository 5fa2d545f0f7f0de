/**
 * {@code bin/securethrift}: the launcher's entry point ({@link io.securethrift.cli.Main}) and every command, each a
 * picocli layer over its module's public settings (the benchmark modules have no picocli), with the options and the
 * {@code compare} and {@code docs} subcommands the benchmark commands share. {@link io.securethrift.cli.ZkBenchCommand}
 * also runs on zk-bench's class path, so it uses nothing of the other commands' modules. Harness code, not published.
 */
package io.securethrift.cli;

/** `forge runner …`: Forge's own CI runner (src/runner/), which parses its own options and --help. */
export const RUNNER_SUMMARY = 'run CI builds for a Forge server on this machine (a shell executor)';

export async function runRunner(argv: string[]): Promise<number> {
  // Loaded on demand: the server does not need the runner's code, nor the runner the server's.
  const { runnerCommand } = await import('../runner/cli');
  return runnerCommand(argv);
}

import { defineCommand } from '../cli/define.js';
import { done } from '../output/result.js';

export default defineCommand<{ hub: string }>({
  summary: 'Run a guided, realistic scenario on the embedded sandbox',
  description:
    'Builds a demo hub step by step and prints what happens at each step. Re-running replaces the previous demo hub. Uses the current profile, which is the embedded sandbox unless you configured another.',
  examples: ['cms demo', 'cms demo --hub demo-2'],
  options: [{ flags: '--hub <name>', description: 'name of the demo hub', default: 'demo' }],
  async run(ctx, _args, opts) {
    const { runDemo } = await import('../ops/demo.js');
    await runDemo(ctx, opts.hub);
    return done('Demo finished');
  },
});

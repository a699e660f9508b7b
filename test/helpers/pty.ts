import { execa } from 'execa';
import { BIN } from './cli.js';

// Runs the built binary in a real pseudo-terminal (Python's pty module), so interactive prompts
// see a TTY on stdin and stderr. A script of steps answers them: wait for a pattern in the
// output (ANSI codes removed), then type the keys.

const DRIVER = String.raw`
import json, os, pty, re, select, struct, sys, time, fcntl, termios

ANSI = re.compile(rb'\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\r')
spec = json.loads(sys.stdin.read())
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(spec['argv'][0], spec['argv'], spec['env'])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', 50, 200, 0, 0))
raw = b''

def pump(timeout):
    global raw
    ready, _, _ = select.select([fd], [], [], timeout)
    if not ready:
        return True
    try:
        data = os.read(fd, 65536)
    except OSError:
        return False
    raw += data
    return bool(data)

def text():
    return ANSI.sub(b'', raw).decode('utf8', 'replace')

seen, failed, open_ = 0, None, True
for i, (pattern, keys) in enumerate(spec['steps']):
    deadline = time.time() + spec['stepTimeout']
    found = re.search(pattern, text()[seen:])
    while not found and open_ and time.time() < deadline:
        open_ = pump(0.1)
        found = re.search(pattern, text()[seen:])
    if not found:
        failed = {'step': i, 'pattern': pattern}
        break
    seen += found.end()
    time.sleep(0.2)
    os.write(fd, keys.encode())
deadline = time.time() + spec['exitTimeout']
while open_ and time.time() < deadline:
    open_ = pump(0.1)
status = None
for _ in range(100):
    done, st = os.waitpid(pid, os.WNOHANG)
    if done:
        status = os.waitstatus_to_exitcode(st)
        break
    time.sleep(0.05)
if status is None:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
print(json.dumps({'exitCode': status, 'failed': failed, 'transcript': text()}))
`;

export const KEY = { enter: '\r', down: '\x1b[B', up: '\x1b[A' } as const;

export interface PtyResult {
  /** null when the process had to be killed. */
  exitCode: number | null;
  /** The step whose pattern never appeared, if any. */
  failed: { step: number; pattern: string } | null;
  /** Everything the terminal showed (stdout and stderr), without ANSI codes. */
  transcript: string;
}

/** Runs `cms <args>` in a pseudo-terminal, answering each [pattern, keys] step in turn. */
export async function runInPty(args: string[], env: Record<string, string>, steps: [pattern: string, keys: string][], timeouts = { step: 20, exit: 30 }): Promise<PtyResult> {
  const spec = {
    argv: [process.execPath, BIN, ...args],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'xterm-256color', ...env },
    steps,
    stepTimeout: timeouts.step,
    exitTimeout: timeouts.exit,
  };
  const res = await execa('python3', ['-c', DRIVER], { input: JSON.stringify(spec), reject: false, timeout: (timeouts.step * steps.length + timeouts.exit + 10) * 1000 });
  if (res.exitCode !== 0) throw new Error(`pty driver failed: ${res.stderr}`);
  return JSON.parse(String(res.stdout)) as PtyResult;
}

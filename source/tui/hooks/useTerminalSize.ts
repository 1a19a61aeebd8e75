import {useEffect, useState} from 'react';
import {useStdout} from 'ink';

export interface TerminalSize {
  columns: number;
  rows: number;
}

// A pipe or test stream may report no size: assume the classic terminal.
const FALLBACK: TerminalSize = {columns: 80, rows: 24};

function measure(stdout: NodeJS.WriteStream): TerminalSize {
  return {
    columns: stdout.columns > 0 ? stdout.columns : FALLBACK.columns,
    rows: stdout.rows > 0 ? stdout.rows : FALLBACK.rows,
  };
}

/** Size of the terminal ink draws to, updated on every 'resize' of that stream. */
export function useTerminalSize(): TerminalSize {
  const {stdout} = useStdout();
  const [size, setSize] = useState(() => measure(stdout));

  useEffect(() => {
    const onResize = () => {
      const next = measure(stdout);
      setSize((previous) => (previous.columns === next.columns && previous.rows === next.rows ? previous : next));
    };
    onResize();
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);

  return size;
}

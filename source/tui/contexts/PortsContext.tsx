import {createContext, useContext} from 'react';
import type {TuiPorts} from '../ports/index.js';

/** The TUI's ports (processes, incidents, feeds, status), provided once by the App. */
export const PortsContext = createContext<TuiPorts | undefined>(undefined);

export function usePorts(): TuiPorts {
  const ports = useContext(PortsContext);
  if (!ports) throw new Error('usePorts needs the App (a PortsContext provider) around it');
  return ports;
}

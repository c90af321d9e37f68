/**
 * Panel slots: a place in one panel where another panel puts its controls, without either
 * importing the other (features never import each other). The host asks for a slot by name with
 * `usePanelSlot` and renders what fills it (nothing when no panel does); the panel registry
 * (app/panels.tsx) says which panel fills which slot, and the app frame provides the fills.
 */
import {createContext, useContext, type ComponentType} from 'react';
import type {CallRecord} from '../store/CallLog.js';

/** Every slot by name, with the props its filler is rendered with. */
export interface PanelSlotProps {
  /**
   * In the Log's call detail, for a call of a recording on the server that the Log shows
   * read-only (filled by the Recordings panel: "Replay up to here", "Export as test").
   */
  recordedCall: {recordingId: string; call: CallRecord};
}

export type PanelSlotName = keyof PanelSlotProps;

/** What fills each slot (at most one panel per slot). */
export type PanelSlotFills = {[Name in PanelSlotName]?: ComponentType<PanelSlotProps[Name]>};

export const PanelSlotsContext = createContext<PanelSlotFills>({});

/** The component filling a slot, or undefined when no panel fills it. */
export function usePanelSlot<Name extends PanelSlotName>(
  name: Name,
): PanelSlotFills[Name] | undefined {
  return useContext(PanelSlotsContext)[name];
}

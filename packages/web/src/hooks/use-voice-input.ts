/**
 * Dictation with the Web Speech API (spec core §4 Microphone: off or recording). Final
 * transcripts are handed to the caller, which appends them to the prompt.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from './use-toast';

/** The parts of SpeechRecognition used here (TypeScript's DOM library does not declare it). */
interface SpeechRecognitionLike {
  continuous: boolean;
  interimResults: boolean;
  lang: string;
  start(): void;
  stop(): void;
  abort(): void;
  onresult: ((event: SpeechResultEventLike) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
}

interface SpeechResultEventLike {
  resultIndex: number;
  results: ArrayLike<{ isFinal: boolean; 0?: { transcript: string } }>;
}

type RecognitionConstructor = new () => SpeechRecognitionLike;

export const MIC_NOT_SUPPORTED = 'Mic not supported. Use Chrome desktop/Android.';

function recognitionConstructor(): RecognitionConstructor | undefined {
  if (typeof window === 'undefined') return undefined;
  const w = window as unknown as { SpeechRecognition?: RecognitionConstructor; webkitSpeechRecognition?: RecognitionConstructor };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition;
}

/** The final transcripts of a result event, joined with spaces. */
export function finalTranscript(event: SpeechResultEventLike): string {
  const parts: string[] = [];
  for (let i = event.resultIndex; i < event.results.length; i += 1) {
    const result = event.results[i];
    const text = result?.[0]?.transcript.trim();
    if (result?.isFinal && text) parts.push(text);
  }
  return parts.join(' ');
}

/** Appends dictated text to the prompt with one space between. */
export function appendTranscript(prompt: string, text: string): string {
  const head = prompt.trimEnd();
  return head ? `${head} ${text}` : text;
}

export interface VoiceInputOptions {
  /** Receives each final transcript. */
  onTranscript: (text: string) => void;
  /** Writes a line to the Activity Feed. */
  onLog: (type: string, message: string) => void;
}

export function useVoiceInput({ onTranscript, onLog }: VoiceInputOptions) {
  const [recording, setRecording] = useState(false);
  const recognition = useRef<SpeechRecognitionLike | null>(null);
  // The latest callbacks, so a recognition started earlier never calls stale ones.
  const callbacks = useRef({ onTranscript, onLog });
  callbacks.current = { onTranscript, onLog };

  useEffect(() => () => recognition.current?.abort(), []);

  const stop = useCallback(() => {
    recognition.current?.stop();
    setRecording(false);
  }, []);

  const start = useCallback(() => {
    const Recognition = recognitionConstructor();
    if (!Recognition) {
      callbacks.current.onLog('error', MIC_NOT_SUPPORTED);
      toast({ title: 'Not Supported', description: MIC_NOT_SUPPORTED, variant: 'destructive' });
      return;
    }
    const instance = new Recognition();
    instance.continuous = true;
    instance.interimResults = false;
    instance.lang = navigator.language || 'en-US';
    instance.onresult = (event) => {
      const text = finalTranscript(event);
      if (text) callbacks.current.onTranscript(text);
    };
    instance.onerror = (event) => {
      callbacks.current.onLog('error', `Mic error: ${event.error}`);
      setRecording(false);
    };
    instance.onend = () => {
      if (recognition.current === instance) recognition.current = null;
      setRecording(false);
    };
    recognition.current?.abort();
    recognition.current = instance;
    try {
      instance.start();
      setRecording(true);
    } catch (error) {
      callbacks.current.onLog('error', `Mic error: ${error instanceof Error ? error.name : 'start-failed'}`);
      recognition.current = null;
      setRecording(false);
    }
  }, []);

  const toggle = useCallback(() => (recording ? stop() : start()), [recording, start, stop]);

  return { recording, toggle, stop };
}

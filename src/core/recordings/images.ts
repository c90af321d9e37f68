/**
 * Moves a recorded event's images out of its line: each image's data goes to a file in the
 * recording's images folder and the line keeps only the file name. The live envelope is never
 * changed (UIs still read it from the hub); a copy is returned when there was anything to move.
 */
import type {CallImage, EventEnvelope, InspectorEvent} from '../../shared/protocol.js';

/** Writes one image; returns the file name it was stored under. */
export type ImageSink = (name: string, mimeType: string, data: string) => string | undefined;

export function imageExtension(mimeType: string): string {
  switch (mimeType) {
    case 'image/png':
      return 'png';
    case 'image/webp':
      return 'webp';
    default:
      return 'jpeg';
  }
}

export function mimeTypeOfImageFile(file: string): string {
  if (file.endsWith('.png')) {
    return 'image/png';
  }
  if (file.endsWith('.webp')) {
    return 'image/webp';
  }
  return 'image/jpeg';
}

function stored(
  image: CallImage | undefined,
  name: string,
  sink: ImageSink,
): CallImage | undefined {
  if (image === undefined || image.data === '') {
    return image;
  }
  const file = sink(name, image.mimeType, image.data);
  return file === undefined ? {...image, data: ''} : {...image, data: '', file};
}

function withoutImages(seq: number, event: InspectorEvent, sink: ImageSink): InspectorEvent {
  if (event.type === 'toolCallEnded' && event.result.images.some(image => image.data !== '')) {
    const images = event.result.images.map((image, index) => {
      if (image.data === '') {
        return image;
      }
      const file = sink(`${seq}-${index}`, image.mimeType, image.data);
      return file === undefined
        ? {mimeType: image.mimeType, data: ''}
        : {mimeType: image.mimeType, data: '', file};
    });
    return {...event, result: {...event.result, images}};
  }
  if (event.type === 'callScreenshots') {
    const before = stored(event.before, `${seq}-before`, sink);
    const after = stored(event.after, `${seq}-after`, sink);
    return {...event, ...(before ? {before} : {}), ...(after ? {after} : {})};
  }
  return event;
}

/** The envelope as a recording line records it: images replaced by file names. */
export function recordableEnvelope(envelope: EventEnvelope, sink: ImageSink): EventEnvelope {
  const event = withoutImages(envelope.seq, envelope.event, sink);
  return event === envelope.event ? envelope : {...envelope, event};
}

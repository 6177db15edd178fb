import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { notWhenClosed, whenClosed, type ClosesWith } from '../../../src/server/http/wire/response-close';

/** One Node `close` listener per response, whatever hears it: the closers in their order, each once. */
describe('whenClosed', () => {
  const response = () => new EventEmitter() as unknown as ServerResponse;
  const closer = (name: string, heard: string[]): ClosesWith => ({ responseClosed: () => heard.push(name) });

  it('calls every closer once, in the order they came, through one listener for two', () => {
    const res = response();
    const heard: string[] = [];
    whenClosed(res, closer('drain', heard));
    whenClosed(res, closer('post', heard));
    expect(res.listenerCount('close')).toBe(1);
    whenClosed(res, closer('third', heard));
    res.emit('close');
    expect(heard).toEqual(['drain', 'post', 'third']);
  });

  it('leaves out a closer taken back, and keeps the others', () => {
    const res = response();
    const heard: string[] = [];
    const post = closer('post', heard);
    whenClosed(res, closer('drain', heard));
    whenClosed(res, post);
    notWhenClosed(res, post);
    res.emit('close');
    expect(heard).toEqual(['drain']);
  });

  it('changes nothing when taking back a closer it does not keep', () => {
    const res = response();
    const heard: string[] = [];
    whenClosed(res, closer('drain', heard));
    whenClosed(res, closer('post', heard));
    notWhenClosed(res, closer('stranger', heard));
    res.emit('close');
    expect(heard).toEqual(['drain', 'post']);
  });

  it('takes the first closer back too, and a later closer still hears the close', () => {
    const res = response();
    const heard: string[] = [];
    const first = closer('first', heard);
    whenClosed(res, first);
    notWhenClosed(res, first);
    whenClosed(res, closer('later', heard));
    res.emit('close');
    expect(heard).toEqual(['later']);
    expect(res.listenerCount('close')).toBe(1);
  });
});

import { describe, expect, it } from "vitest";
import { BoundedReadBuffer, idFromEnds, kindFromHead } from "./bounded-read-buffer.js";

type Message = { line?: string; skipped?: number; id?: number | string | undefined };

const buffer = (limit: number) =>
  new BoundedReadBuffer<Message>(
    (line) => ({ line }),
    (bytes, id) => (id === undefined ? undefined : { skipped: bytes, id }),
    limit,
  );
const drain = (read: BoundedReadBuffer<Message>) => {
  const out: Message[] = [];
  for (let next = read.readMessage(); next !== null; next = read.readMessage()) out.push(next);
  return out;
};

describe("BoundedReadBuffer", () => {
  it("splits lines across chunks and skips one over the limit, standing in for its id", () => {
    const read = buffer(64);
    const big = `{"result":{"text":"${"x".repeat(500)}"},"jsonrpc":"2.0","id":7}`;
    read.append(Buffer.from('{"a":1}\n{"b"'));
    read.append(Buffer.from(`:2}\n${big.slice(0, 100)}`));
    read.append(Buffer.from(`${big.slice(100)}\n{"c":3}\n`));
    expect(drain(read)).toEqual([
      { line: '{"a":1}' },
      { line: '{"b":2}' },
      { skipped: big.length, id: 7 },
      { line: '{"c":3}' },
    ]);
  });

  it("drops an over-limit line that names no request and reads on", () => {
    const read = buffer(16);
    read.append(
      Buffer.from(`{"method":"notifications/message","params":"${"y".repeat(40)}"}\n{"d":4}\n`),
    );
    expect(drain(read)).toEqual([{ line: '{"d":4}' }]);
  });

  it("finds the id first (most SDKs) or last (the TypeScript SDK), only at the top level", () => {
    expect(idFromEnds('{"jsonrpc":"2.0","id":"a-1","result":{', "")).toBe("a-1");
    expect(idFromEnds('{"result":{"x":', 'xx"}},"jsonrpc":"2.0","id":12}')).toBe(12);
    // an "id" closing a nested object is followed by more than one brace: not the message's
    expect(idFromEnds('{"result":{"x":', '"item":{"id":3}}}')).toBeUndefined();
  });

  it("tells a skipped request from a skipped response by its first key of the three", () => {
    expect(kindFromHead('{"method":"tools/call","params":{"arguments":{"text":"')).toBe("request");
    expect(kindFromHead('{"jsonrpc":"2.0","id":4,"method":"sampling/createMessage"')).toBe(
      "request",
    );
    // a nested "method" key inside a result comes after the message's own "result"
    expect(kindFromHead('{"result":{"structuredContent":{"method":"x"')).toBe("response");
    expect(kindFromHead('{"jsonrpc":"2.0","id":4,"error":{"code":1')).toBe("response");
    // an escaped quote inside a string is not a key
    expect(kindFromHead('{"params":{"text":"\\"method\\": no')).toBe("unknown");
  });
});

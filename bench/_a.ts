import { checkArguments } from "../src/disclosure/validate-arguments.js";
const cases: Record<string, any> = {
  remote: { type: "object", properties: { a: { $ref: "https://example.com/s.json" } } },
  badPattern: { type: "object", properties: { a: { type: "string", pattern: "(unclosed" } } },
  maxString: { type: "object", properties: { amount: { type: "number", maximum: "5" } } },
  refCycle: { type: "object", properties: { a: { $ref: "#/definitions/x" } }, definitions: { x: { $ref: "#/definitions/y" }, y: { $ref: "#/definitions/x" } } },
  anyOfRec: { type: "object", properties: { a: { $ref: "#/definitions/n" } }, definitions: { n: { anyOf: [{ $ref: "#/definitions/n" }, { type: "string" }] } } },
  selfRoot: { type: "object", properties: { child: { $ref: "#" } } },
};
for (const [k, schema] of Object.entries(cases)) {
  try {
    const r = checkArguments({ name: k, description: "", inputSchema: schema } as any, { amount: 1_000_000, a: "x", child: { child: {} } });
    console.log(k, JSON.stringify(r).slice(0, 200));
  } catch (e) { console.log(k, "THROWS", (e as Error).constructor.name, String((e as Error).message).slice(0, 100)); }
}
// deep args
let deep: any = {}; for (let i = 0; i < 100_000; i++) deep = { child: deep };
try { console.log("deepargs", JSON.stringify(checkArguments({ name: "d", description: "", inputSchema: cases.selfRoot } as any, deep)).slice(0, 200)); } catch (e) { console.log("deepargs THROWS", (e as Error).message); }

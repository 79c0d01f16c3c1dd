"""Tool search for large catalogs: prompt tokens with 50 and 500 tools, before and after, and
the share of missions whose tool BM25 ranks in the top 5.

    ptc bench tool-search [--json] [--encoding o200k_base]     (or: python bench/tool_search.py)

The catalog is generated here (fixed, no randomness): 50 hand-written tools in ten domains
(weather, calendar, email, CRM, payments, travel, files, code hosting, maps, HR), each with a
description and described parameters, and for 500 those plus 450 tools of 18 more domains
in the shape MCP servers list them (list/get/search/create/update/delete/count/export of each
record, with the record's description), so that a search meets many near neighbours. Each
of the 50 missions needs one of the 50 tools and is worded as a user would ask, not copied
from the tool's description; it is the query as it stands (a model's own query is usually
shorter and closer to the tool's words).

Before: every signature in the prompt (`tool_search=False`); after: the default threshold
(30), so both catalogs list their groups and carry `tool/search-tools`. Counted with ptc's
token counter (o200k_base when tiktoken has it offline) for the agent's system prompt
(default and compact profiles) and for `ptc mcp serve`'s `run_ptc_lisp` description.
"""

from __future__ import annotations

import inspect
import time
from typing import Any

import ptc
from ptc.llm.tokens import DEFAULT_ENCODING, count_tokens, tokenizer_name

S, I, F, B = str, int, float, bool
LIST = list[dict[str, Any]]
MAP = dict[str, Any]

# name, description, [(parameter, type, description, required)], returns
CORE: list[tuple[str, str, list[tuple[str, Any, str, bool]], Any]] = [
    ("weather-get-forecast", "Daily forecast for a city: high and low temperature, chance of rain, wind.",
     [("city", S, "City name, e.g. Lyon.", True), ("days", I, "Days ahead, 1 to 10.", False)], LIST),
    ("weather-get-current", "Current conditions at a place: temperature, humidity, sky.",
     [("city", S, "City name.", True)], MAP),
    ("weather-get-alerts", "Active severe weather warnings (storms, floods, heat) for a region.",
     [("region", S, "Region or state code.", True)], LIST),
    ("weather-get-air-quality", "Air quality index and pollutant levels (PM2.5, ozone) for a city.",
     [("city", S, "City name.", True)], MAP),
    ("weather-get-history", "Observed temperature and rainfall for a past date range at a city.",
     [("city", S, "City name.", True), ("start", S, "First date, YYYY-MM-DD.", True),
      ("end", S, "Last date, YYYY-MM-DD.", True)], LIST),
    ("calendar-list-events", "Events on a calendar between two dates.",
     [("calendar", S, "Calendar id.", False), ("start", S, "From date.", True), ("end", S, "To date.", True)], LIST),
    ("calendar-create-event", "Schedule an event with a title, start, end and attendees; sends invitations.",
     [("title", S, "Event title.", True), ("start", S, "Start, ISO date-time.", True), ("end", S, "End.", True),
      ("attendees", list[str], "Emails to invite.", False)], MAP),
    ("calendar-find-free-slot", "Find a time when all the given people are available for a meeting of some length.",
     [("people", list[str], "Emails.", True), ("minutes", I, "Meeting length.", True)], LIST),
    ("calendar-cancel-event", "Cancel an event and notify its attendees.",
     [("event_id", S, "The event.", True)], MAP),
    ("calendar-set-out-of-office", "Mark a person as away between two dates, with an automatic reply.",
     [("start", S, "First day.", True), ("end", S, "Last day.", True), ("message", S, "Reply text.", False)], MAP),
    ("email-send-message", "Send an email to recipients, with a subject and a body.",
     [("to", list[str], "Recipients.", True), ("subject", S, "Subject line.", True), ("body", S, "Text.", True)], MAP),
    ("email-search-inbox", "Search received mail by sender, words and date.",
     [("query", S, "Words to find.", True), ("sender", S, "From address.", False)], LIST),
    ("email-get-thread", "All messages of one conversation thread.", [("thread_id", S, "The thread.", True)], LIST),
    ("email-list-unread", "Unread messages in the inbox, newest first.", [("limit", I, "How many.", False)], LIST),
    ("email-create-draft", "Save an email as a draft without sending it.",
     [("to", list[str], "Recipients.", True), ("subject", S, "Subject.", True), ("body", S, "Text.", True)], MAP),
    ("crm-search-contacts", "Find people in the CRM by name, company or email.",
     [("query", S, "Name, company or email.", True)], LIST),
    ("crm-get-account", "A company account: industry, owner, annual revenue, open deals.",
     [("account_id", S, "The account.", True)], MAP),
    ("crm-list-deals", "Sales opportunities in the pipeline, by stage and owner, with their value.",
     [("stage", S, "prospect, proposal, won, lost.", False), ("owner", S, "Sales rep.", False)], LIST),
    ("crm-log-call", "Record a phone call with a contact, with notes.",
     [("contact_id", S, "The contact.", True), ("notes", S, "What was said.", True)], MAP),
    ("crm-update-deal-stage", "Move an opportunity to another stage of the pipeline.",
     [("deal_id", S, "The deal.", True), ("stage", S, "New stage.", True)], MAP),
    ("payments-refund-charge", "Give a customer their money back for a card charge, wholly or in part.",
     [("charge_id", S, "The charge.", True), ("amount", F, "Amount to refund; all when left out.", False)], MAP),
    ("payments-list-charges", "Card charges of a customer or a date range, with their status.",
     [("customer", S, "Customer id.", False), ("since", S, "From date.", False)], LIST),
    ("payments-create-invoice", "Bill a customer: an invoice with line items, due date and currency.",
     [("customer", S, "Customer id.", True), ("items", LIST, "Lines: description, quantity, price.", True),
      ("due", S, "Due date.", False)], MAP),
    ("payments-get-balance", "Available and pending funds in the merchant account, per currency.", [], MAP),
    ("payments-list-disputes", "Chargebacks opened by card holders, with their reason and deadline.",
     [("status", S, "open or closed.", False)], LIST),
    ("travel-search-flights", "Flights between two airports on a date, with prices and stops.",
     [("origin", S, "IATA code.", True), ("destination", S, "IATA code.", True), ("date", S, "Day.", True)], LIST),
    ("travel-book-hotel", "Reserve a hotel room for given nights.",
     [("hotel_id", S, "The hotel.", True), ("check_in", S, "Arrival.", True), ("nights", I, "Nights.", True)], MAP),
    ("travel-search-hotels", "Hotels in a city with availability and nightly rate.",
     [("city", S, "City.", True), ("check_in", S, "Arrival.", True), ("nights", I, "Nights.", True)], LIST),
    ("travel-get-flight-status", "Whether a flight is on time, delayed or cancelled, with its gate.",
     [("flight_number", S, "e.g. AF1234.", True), ("date", S, "Day.", False)], MAP),
    ("travel-convert-currency", "Convert an amount from one currency to another at today's rate.",
     [("amount", F, "Amount.", True), ("from_currency", S, "ISO code.", True), ("to_currency", S, "ISO code.", True)],
     MAP),
    ("files-search-documents", "Full-text search over the shared drive's documents.",
     [("query", S, "Words.", True), ("folder", S, "Folder path.", False)], LIST),
    ("files-read-file", "The text content of a file.", [("path", S, "File path.", True)], S),
    ("files-share-file", "Give another person view or edit access to a file.",
     [("path", S, "File path.", True), ("email", S, "Who.", True), ("role", S, "viewer or editor.", False)], MAP),
    ("files-list-folder", "Files and folders inside a folder, with size and modification time.",
     [("path", S, "Folder path.", True)], LIST),
    ("files-upload-file", "Store a new file with the given content in a folder.",
     [("path", S, "Where.", True), ("content", S, "Text.", True)], MAP),
    ("code-list-pull-requests", "Open pull requests of a repository, with author and review state.",
     [("repo", S, "owner/name.", True), ("state", S, "open, closed, merged.", False)], LIST),
    ("code-create-issue", "Open an issue in a repository's tracker with a title, body and labels.",
     [("repo", S, "owner/name.", True), ("title", S, "Title.", True), ("body", S, "Text.", False),
      ("labels", list[str], "Labels.", False)], MAP),
    ("code-get-ci-status", "The result of the latest build and test pipeline on a branch.",
     [("repo", S, "owner/name.", True), ("branch", S, "Branch.", False)], MAP),
    ("code-search-code", "Search source code across repositories for a symbol or text.",
     [("query", S, "Text or symbol.", True)], LIST),
    ("code-merge-pull-request", "Merge an approved pull request into its base branch.",
     [("repo", S, "owner/name.", True), ("number", I, "PR number.", True)], MAP),
    ("maps-geocode-address", "Latitude and longitude of a street address.", [("address", S, "Address.", True)], MAP),
    ("maps-get-directions", "Route, distance and travel time between two places by car, foot or transit.",
     [("origin", S, "From.", True), ("destination", S, "To.", True), ("mode", S, "driving, walking, transit.",
                                                                        False)], MAP),
    ("maps-search-places", "Businesses and points of interest near a location, e.g. restaurants.",
     [("query", S, "What.", True), ("near", S, "Where.", True)], LIST),
    ("maps-reverse-geocode", "The address at a latitude and longitude.",
     [("lat", F, "Latitude.", True), ("lon", F, "Longitude.", True)], MAP),
    ("maps-get-timezone", "The time zone and local time at a place.", [("place", S, "City or coordinates.", True)],
     MAP),
    ("hr-list-employees", "Staff directory: name, department, title, manager.",
     [("department", S, "Department.", False)], LIST),
    ("hr-request-time-off", "File a vacation or sick-leave request for approval.",
     [("employee_id", S, "Who.", True), ("start", S, "First day.", True), ("end", S, "Last day.", True),
      ("kind", S, "vacation or sick.", False)], MAP),
    ("hr-get-leave-balance", "Days of paid leave an employee has left this year.",
     [("employee_id", S, "Who.", True)], MAP),
    ("hr-get-payslip", "An employee's salary statement for a month: gross, taxes, net pay.",
     [("employee_id", S, "Who.", True), ("month", S, "YYYY-MM.", True)], MAP),
    ("hr-list-open-positions", "Job openings the company is hiring for, by team and location.",
     [("team", S, "Team.", False)], LIST),
]

# (mission, the tool it needs): worded as a user asks, not as the tool is described
MISSIONS: list[tuple[str, str]] = [
    ("Will it rain in Lyon over the next three days?", "weather-get-forecast"),
    ("How warm is it in Oslo right now?", "weather-get-current"),
    ("Are there any storm warnings in Florida?", "weather-get-alerts"),
    ("Is the pollution in Delhi bad today?", "weather-get-air-quality"),
    ("How much did it rain in Seattle last March?", "weather-get-history"),
    ("What meetings do I have next week?", "calendar-list-events"),
    ("Put a team lunch on the calendar Friday at noon and invite Ana and Bo.", "calendar-create-event"),
    ("When can Ana, Bo and Chen all meet for 30 minutes?", "calendar-find-free-slot"),
    ("Call off tomorrow's standup and tell everyone.", "calendar-cancel-event"),
    ("I'm on vacation from Aug 1 to Aug 15; set my away message.", "calendar-set-out-of-office"),
    ("Email the quarterly numbers to the finance team.", "email-send-message"),
    ("Find the mail from DHL about my package.", "email-search-inbox"),
    ("Show me the whole conversation about the Q3 budget.", "email-get-thread"),
    ("Which messages haven't I read yet?", "email-list-unread"),
    ("Write a reply to the landlord but don't send it yet.", "email-create-draft"),
    ("What is Maria Lopez's phone number at Globex?", "crm-search-contacts"),
    ("How big is the Initech account and who owns it?", "crm-get-account"),
    ("Which opportunities are at the proposal stage?", "crm-list-deals"),
    ("Note that I spoke with Tom from Acme about renewal pricing.", "crm-log-call"),
    ("Mark the Acme renewal as won.", "crm-update-deal-stage"),
    ("The customer was charged twice; give them back $40.", "payments-refund-charge"),
    ("What did customer 881 pay us this month?", "payments-list-charges"),
    ("Bill Globex for 10 hours of consulting at $150.", "payments-create-invoice"),
    ("How much money is in our merchant account?", "payments-get-balance"),
    ("Which chargebacks do we need to answer?", "payments-list-disputes"),
    ("Find me a flight from Paris to Tokyo on May 3.", "travel-search-flights"),
    ("Reserve two nights at the Hilton Midtown from June 9.", "travel-book-hotel"),
    ("Where can I stay in Lisbon for three nights from April 2?", "travel-search-hotels"),
    ("Is AF1234 delayed?", "travel-get-flight-status"),
    ("How many yen is 250 euros?", "travel-convert-currency"),
    ("Find the document about the 2024 security audit on the drive.", "files-search-documents"),
    ("Open /reports/q2.txt and tell me what it says.", "files-read-file"),
    ("Let Priya edit the roadmap spreadsheet.", "files-share-file"),
    ("What's in the /contracts folder?", "files-list-folder"),
    ("Save these meeting notes as /notes/2025-05-01.md.", "files-upload-file"),
    ("Which PRs are waiting for review in acme/api?", "code-list-pull-requests"),
    ("File a bug in acme/web: the login button does nothing on Safari.", "code-create-issue"),
    ("Are the tests passing on main in acme/api?", "code-get-ci-status"),
    ("Where is the function parse_invoice defined in our repos?", "code-search-code"),
    ("Merge PR 42 in acme/api; it's approved.", "code-merge-pull-request"),
    ("What are the coordinates of 10 Downing Street?", "maps-geocode-address"),
    ("How long does it take to drive from Boston to New York?", "maps-get-directions"),
    ("Any good sushi restaurants near Union Square?", "maps-search-places"),
    ("What address is at 48.8584, 2.2945?", "maps-reverse-geocode"),
    ("What time is it in Sydney?", "maps-get-timezone"),
    ("Who works in the marketing department?", "hr-list-employees"),
    ("Book me off sick tomorrow.", "hr-request-time-off"),
    ("How many vacation days do I have left?", "hr-get-leave-balance"),
    ("What was my net salary in April?", "hr-get-payslip"),
    ("Are we hiring any engineers in Berlin?", "hr-list-open-positions"),
]

# 18 more domains of records, each tool in the shape MCP servers list them: 450 tools
RECORDS: dict[str, dict[str, str]] = {
    "inventory": {"stock-item": "a stock item (SKU, warehouse, quantity on hand, reorder level)",
                  "warehouse": "a warehouse (city, capacity, manager)",
                  "purchase-order": "a purchase order to a supplier (items, total, expected date)"},
    "support": {"ticket": "a support ticket (customer, priority, status, assignee)",
                "macro": "a canned reply agents insert into tickets",
                "sla-policy": "a service-level policy (first response and resolution targets)"},
    "analytics": {"dashboard": "a dashboard of charts over business metrics",
                  "report": "a scheduled report (query, recipients, frequency)",
                  "metric": "a tracked metric (name, formula, owner)"},
    "marketing": {"campaign": "a marketing campaign (channel, budget, start and end dates)",
                  "audience": "a customer segment targeted by campaigns",
                  "newsletter": "an email newsletter issue (subject, send date, open rate)"},
    "ecommerce": {"order": "a shop order (customer, items, total, shipping status)",
                  "product": "a catalog product (title, price, stock, category)",
                  "coupon": "a discount code (percentage, expiry, uses)"},
    "shipping": {"shipment": "a parcel shipment (carrier, tracking number, delivery date)",
                 "carrier": "a delivery carrier (name, services, rates)",
                 "return": "a returned parcel (reason, refund status)"},
    "accounting": {"ledger-entry": "a general-ledger entry (account, debit, credit, date)",
                   "expense": "an expense claim (employee, amount, category, receipt)",
                   "budget": "a department budget for a fiscal year"},
    "devops": {"server": "a cloud server (region, size, status, IP address)",
               "deployment": "a deployment of a service version to an environment",
               "alert-rule": "a monitoring alert rule (metric, threshold, channel)"},
    "database": {"table": "a database table (schema, row count, size)",
                 "backup": "a database backup (time, size, retention)",
                 "query-log": "a logged slow query (duration, statement)"},
    "chat": {"channel": "a team chat channel (name, members, topic)",
             "message": "a chat message (channel, author, text, time)",
             "reminder": "a reminder the chat bot posts at a time"},
    "docs": {"page": "a wiki page (title, space, author, last edit)",
             "space": "a wiki space grouping pages of a team",
             "comment": "a comment on a wiki page"},
    "projects": {"task": "a project task (title, assignee, due date, status)",
                 "milestone": "a project milestone (date, goals)",
                 "sprint": "a sprint of a team (dates, committed points)"},
    "legal": {"contract": "a contract (counterparty, value, start and end dates, renewal)",
              "nda": "a non-disclosure agreement (party, signed date)",
              "policy": "a company policy document (owner, version)"},
    "security": {"user": "a login account (email, roles, last sign-in, MFA)",
                 "api-key": "an API key (owner, scopes, expiry)",
                 "audit-event": "an audit log event (actor, action, time)"},
    "fleet": {"vehicle": "a company vehicle (plate, model, mileage, driver)",
              "trip": "a logged vehicle trip (driver, distance, fuel)",
              "maintenance": "a vehicle maintenance job (date, cost, garage)"},
    "facilities": {"room": "a meeting room (building, floor, seats, equipment)",
                   "booking": "a room booking (room, time, organizer)",
                   "work-order": "a building repair request (location, urgency)"},
    "learning": {"course": "a training course (title, duration, level)",
                 "enrollment": "an employee's enrollment in a course (progress, score)",
                 "certificate": "a certificate earned by an employee"},
    "procurement": {"supplier": "a supplier (country, rating, payment terms)",
                    "quote": "a supplier's price quote (items, total, validity)",
                    "contract-bid": "a bid in a tender (supplier, price, score)"},
}
ACTIONS = [
    ("list", "List {plural}: {desc}. Filter by status and date; newest first.", [("status", S, "Status.", False),
                                                                                  ("limit", I, "How many.", False)],
     LIST),
    ("get", "One {entity} by id: {desc}.", [("id", S, "The {entity}'s id.", True)], MAP),
    ("search", "Search {plural} by words in their fields.", [("query", S, "Words to find.", True)], LIST),
    ("create", "Create {article} {entity}: {desc}.", [("fields", MAP, "The new {entity}'s fields.", True)], MAP),
    ("update", "Change fields of {article} {entity}.", [("id", S, "The {entity}'s id.", True),
                                                       ("fields", MAP, "Fields to change.", True)], MAP),
    ("delete", "Delete {article} {entity} for good.", [("id", S, "The {entity}'s id.", True)], MAP),
    ("count", "How many {plural} there are, by status.", [("status", S, "Status.", False)], MAP),
    ("export", "Export {plural} as CSV text.", [("since", S, "From date.", False)], S),
]
EXTRA_PER_DOMAIN = 1  # and one tool of the domain's own, to reach 450


def plural(entity: str) -> str:
    words = entity.split("-")
    last = words[-1]
    if last.endswith("y") and last[-2:-1] not in "aeiou":
        words[-1] = last[:-1] + "ies"
    else:
        words[-1] = last + ("es" if last.endswith(("s", "x", "ch")) else "s")
    return " ".join(words)


def make_tool(name: str, description: str, params: list[tuple[str, Any, str, bool]], returns: Any) -> ptc.Tool:
    def fn(**kwargs: Any) -> Any:
        return {"tool": name, "arguments": kwargs}

    fn.__doc__ = description + ("\n\nArgs:\n" + "".join(f"    {p}: {d}\n" for p, _, d, _ in params) if params else "")
    P = inspect.Parameter
    sig = inspect.Signature([P(p, P.KEYWORD_ONLY, annotation=t, **({} if req else {"default": None}))
                             for p, t, _, req in params], return_annotation=returns)
    return ptc.Tool(fn, name=name, signature=sig, _localns={})


def catalog(size: int) -> dict[str, ptc.Tool]:
    """The first `size` tools (50 or 500) of the generated catalog."""
    tools = {spec[0]: make_tool(*spec) for spec in CORE}
    for domain, entities in RECORDS.items():
        for entity, desc in entities.items():
            for action, template, params, returns in ACTIONS:
                words = {"entity": entity.replace("-", " "), "plural": plural(entity), "desc": desc,
                         "article": "an" if entity[0] in "aeiou" else "a"}
                name = f"{domain}-{action}-{entity if action in ('get', 'create', 'update', 'delete') else plural(entity).replace(' ', '-')}"
                tools[name] = make_tool(name, template.format(**words),
                                        [(p, t, d.format(**words), r) for p, t, d, r in params], returns)
    extra = [("inventory-forecast-demand", "Predicted units sold per SKU for the coming weeks.", [("sku", S, "SKU.", True)]),
             ("support-escalate-ticket", "Hand a ticket to the second-level team.", [("ticket_id", S, "Ticket.", True)]),
             ("analytics-run-query", "Run a SQL query on the warehouse and return rows.", [("sql", S, "Query.", True)]),
             ("marketing-send-campaign", "Send a campaign's emails to its audience now.", [("campaign_id", S, "Id.", True)]),
             ("ecommerce-apply-coupon", "Apply a discount code to a cart.", [("cart_id", S, "Cart.", True), ("code", S, "Code.", True)]),
             ("shipping-track-parcel", "Where a parcel is now, from its tracking number.", [("tracking", S, "Number.", True)]),
             ("accounting-close-month", "Close the books of a month.", [("month", S, "YYYY-MM.", True)]),
             ("devops-restart-service", "Restart a service on its servers.", [("service", S, "Name.", True)]),
             ("database-run-migration", "Apply pending schema migrations.", [("target", S, "Version.", False)]),
             ("chat-post-message", "Post a message in a chat channel.", [("channel", S, "Channel.", True), ("text", S, "Text.", True)]),
             ("docs-publish-page", "Publish a draft wiki page.", [("page_id", S, "Page.", True)]),
             ("projects-assign-task", "Give a task to a person.", [("task_id", S, "Task.", True), ("assignee", S, "Who.", True)]),
             ("legal-request-signature", "Send a contract for e-signature.", [("contract_id", S, "Contract.", True)]),
             ("security-rotate-api-key", "Replace an API key with a new one.", [("key_id", S, "Key.", True)]),
             ("fleet-locate-vehicle", "GPS position of a vehicle now.", [("plate", S, "Plate.", True)]),
             ("facilities-book-room", "Book a meeting room for a time slot.", [("room_id", S, "Room.", True), ("start", S, "Start.", True)]),
             ("learning-assign-course", "Enroll employees in a course.", [("course_id", S, "Course.", True)]),
             ("procurement-approve-quote", "Approve a supplier's quote.", [("quote_id", S, "Quote.", True)])]
    for name, description, params in extra[:EXTRA_PER_DOMAIN * len(RECORDS)]:
        tools[name] = make_tool(name, description, params, MAP)
    names = list(tools)[:size]
    return {n: tools[n] for n in names}


def prompt_tokens(tools: dict[str, Any], tool_search: Any, encoding: str = DEFAULT_ENCODING) -> dict[str, int]:
    """Tokens of the agent's system prompt (both profiles) and of the gateway's code tool description."""
    from ptc.sandbox.mcp_server import Gateway

    out = {}
    for profile in ("default", "compact"):
        agent = ptc.Agent("mission", tools=tools, prompt=profile, llm=lambda m: "", tool_search=tool_search)
        out[f"agent prompt ({profile})"] = count_tokens(agent.system_prompt, encoding)
    out["ptc mcp serve description"] = count_tokens(Gateway(tools=tools, tool_search=tool_search).description,
                                                    encoding)
    return out


def top_k_share(tools: dict[str, Any], k: int = 5) -> dict[str, Any]:
    """How many missions (their text as the query) find their tool first and in the top k."""
    from ptc.tools.search import ToolIndex

    index = ToolIndex(tools)
    hits1 = hits5 = 0
    missed = []
    t0 = time.perf_counter()
    for mission, expected in MISSIONS:
        found = index.search(mission, k)
        hits1 += bool(found) and found[0] == expected
        hits5 += expected in found
        if expected not in found:
            missed.append((mission, expected, found[:3]))
    elapsed = time.perf_counter() - t0  # the first search builds the index
    return {"top1": hits1, "top5": hits5, "missions": len(MISSIONS), "missed": missed,
            "ms_per_search": 1000 * elapsed / len(MISSIONS)}


def result_tokens(tools: dict[str, Any], encoding: str = DEFAULT_ENCODING) -> int:
    """Tokens of one search's printed result (5 signatures): what the next turn reads."""
    from ptc.tools.search import search_tool

    return count_tokens(search_tool(tools).invoke({"query": "weather forecast for a city"}), encoding)


def measure(encoding: str = DEFAULT_ENCODING, sizes: tuple[int, ...] = (50, 500)) -> dict[str, Any]:
    """Every figure of the benchmark, by catalog size."""
    report: dict[str, Any] = {"tokenizer": tokenizer_name(encoding)}
    for size in sizes:
        tools = catalog(size)
        assert len(tools) == size, len(tools)
        report[str(size)] = {"before": prompt_tokens(tools, False, encoding),
                             "after": prompt_tokens(tools, None, encoding),
                             "search": top_k_share(tools), "search_result_tokens": result_tokens(tools, encoding)}
    return report


def report_lines(report: dict[str, Any]) -> list[str]:
    sizes = [k for k in report if k.isdigit()]
    lines = [f"Tokens ({report['tokenizer']}), every signature listed (before) -> groups and "
             f"tool/search-tools (after):"]
    for size in sizes:
        r = report[size]
        for key, b in r["before"].items():
            a = r["after"][key]
            lines.append(f"  {size:>3} tools  {key:<28} {b:>7,} -> {a:>6,}  ({b / a:.1f}x fewer)")
    lines.append("Search (BM25, SQLite FTS5), each mission's text as the query:")
    for size in sizes:
        s = report[size]["search"]
        lines.append(f"  {size:>3} tools: the mission's tool in the top 5: {s['top5']}/{s['missions']} "
                     f"({100 * s['top5'] / s['missions']:.0f}%), first: {s['top1']}/{s['missions']}; "
                     f"{s['ms_per_search']:.2f} ms a search; a search's result: {report[size]['search_result_tokens']} "
                     f"tokens")
        for mission, expected, found in s["missed"]:
            lines.append(f"      missed: {mission!r} needs {expected}, got {', '.join(found) or 'nothing'}")
    return lines

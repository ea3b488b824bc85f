-- wrk script of bench/soak: cycles through the requests of a file, one a line
-- "METHOD<TAB>PATH[<TAB>JSON BODY]", each thread from its own place in the list, and counts the
-- answers by status class; done() prints "statuses 2xx=N 3xx=N 4xx=N 5xx=N", then the bodies of
-- the first few answers that were not 2xx (an error in Hornet's JSON names what failed).
-- Usage: wrk ... -s load.lua URL -- REQUESTS_FILE

local threads = {}

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  lines = {}
  for line in io.lines(args[1]) do
    local method, path, body = line:match("^(%u+)\t([^\t]+)\t?(.*)$")
    if method then
      local headers, content = nil, nil
      if body ~= "" then
        -- The legacy node API (IRI's) refuses a command without its API version header.
        headers = { ["Content-Type"] = "application/json", ["X-IOTA-API-Version"] = "1" }
        content = body
      end
      lines[#lines + 1] = wrk.format(method, path, headers, content)
    end
  end
  assert(#lines > 0, "no requests in " .. args[1])
  -- Threads start far apart in the list, so that they do not ask the same keys at once.
  next_line = (id * math.floor(#lines / 7 + 1)) % #lines
  s2xx, s3xx, s4xx, s5xx = 0, 0, 0, 0
  failures = ""
end

function request()
  next_line = next_line % #lines + 1
  return lines[next_line]
end

function response(status, headers, body)
  if status < 300 then
    s2xx = s2xx + 1
  elseif status < 400 then
    s3xx = s3xx + 1
  elseif status < 500 then
    s4xx = s4xx + 1
  else
    s5xx = s5xx + 1
  end
  if status >= 300 and s3xx + s4xx + s5xx <= 3 then
    failures = failures .. status .. " " .. body:sub(1, 200):gsub("\n", " ") .. "\n"
  end
end

function done(summary, latency, requests)
  local t = { 0, 0, 0, 0 }
  for _, thread in ipairs(threads) do
    t[1] = t[1] + thread:get("s2xx")
    t[2] = t[2] + thread:get("s3xx")
    t[3] = t[3] + thread:get("s4xx")
    t[4] = t[4] + thread:get("s5xx")
  end
  io.write(string.format("statuses 2xx=%d 3xx=%d 4xx=%d 5xx=%d\n", t[1], t[2], t[3], t[4]))
  for _, thread in ipairs(threads) do
    io.write(thread:get("failures"))
  end
end

"""The total of an order: python3 scripts/order_total.py

It stops with a TypeError. To see why under the debugger:
openspace.debug.start {"program": "scripts/order_total.py"}
"""

ORDER = """sku,price,qty
pen,1.50,4
notebook,3.25,2
bag,12.00,1
"""


def parse(text):
    rows = []
    for line in text.strip().splitlines()[1:]:
        sku, price, qty = line.split(",")
        rows.append({"sku": sku, "price": float(price), "qty": qty})
    return rows


def line_total(row):
    return row["price"] * row["qty"]


def order_total(rows):
    return sum(line_total(row) for row in rows)


if __name__ == "__main__":
    print(f"total {order_total(parse(ORDER)):.2f}")
